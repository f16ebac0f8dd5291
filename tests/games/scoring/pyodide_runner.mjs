// Run tests/games/scoring/pyodide_cases.py under Pyodide in Node, with the engine zip on sys.path,
// exactly as the browser's worker loads it (static/js/engine-worker.js): the vendored
// Pyodide, the zip as a zipimport path.
//
//   node pyodide_runner.mjs PYODIDE_DIR ENGINE_ZIP CASES_PY CASES_JSONL  > ANSWERS_JSONL
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, engineZip, casesPy, casesJsonl] = process.argv.slice(2).map((p) => resolve(p));
const { loadPyodide } = await import(pathToFileURL(`${pyodideDir}/pyodide.mjs`).href);
const pyodide = await loadPyodide({ indexURL: `${pyodideDir}/` });
pyodide.FS.mkdirTree("/engine");
pyodide.FS.writeFile("/engine/games-scoring.zip", readFileSync(engineZip));
pyodide.FS.writeFile("/engine/cases.py", readFileSync(casesPy));
pyodide.FS.writeFile("/engine/cases.jsonl", readFileSync(casesJsonl));
pyodide.runPython(`
import sys
sys.path[:0] = ["/engine/games-scoring.zip", "/engine"]
import cases
with open("/engine/cases.jsonl", encoding="utf-8") as source:
    answers = cases.answer_lines(source.read())
with open("/engine/answers.jsonl", "w") as target:
    target.write(answers)
`);
process.stdout.write(pyodide.FS.readFile("/engine/answers.jsonl"));
