// The scoring engine on the phone (docs/decisions.md "One engine, two runtimes"): a module
// Web Worker that starts Pyodide (static/vendor/pyodide) and puts the served engine zip
// (games/engine_files.py) on its sys.path, so that games/scoring itself replays a record.
// Nothing here knows a rule: it hands the record to the engine and gives back its marque,
// the JSON of `rami score --format json` (lenient: a crossing may still wait for its rachat
// decision, as on the server's page). The record's donnes are those after the stored state
// "after" (games/offline_record.py), which the engine carries on from, as the server does.
//
// Messages in: { id, type: "init", pyodide, engine } then { id, type: "replay", record,
// after }.
// Messages out: { id, ok: true, marque } or { id, ok: false, error }.
"use strict";

const GLUE = `
import json
from games.scoring import DonneState, RamiError, replay
from games.scoring.cli import render_json

def rami_replay(text):
    page = json.loads(text)
    record = page["record"]
    after = DonneState.from_storage(page["after"]) if page.get("after") else None
    try:
        result = replay(record["preset"], record["players"], record["donnes"],
                        record.get("config") or {}, lenient=True,
                        ended=record.get("ended", False), after=after)
    except RamiError as err:
        return json.dumps({"error": {"code": err.code, "donne": err.donne, "message": err.message}}, ensure_ascii=False)
    marque = json.loads(render_json(result))
    marque["pending"] = [
        {"donne": p.donne, "player": p.player, "total": p.total, "number": p.number,
         "restart": p.restart, "price": p.price}
        for p in result.pending
    ]
    marque["over"] = result.over
    # Each donne's number and the next one's, as the engine numbers them (after the stored
    # state): the page's titles and rows take them from here.
    marque["numbers"] = [s.number for s in result.states]
    last = result.states[-1] if result.states else after
    marque["next_number"] = (last.number if last else 0) + 1
    return json.dumps(marque, ensure_ascii=False)
`;

let ready = null;
let replayFn = null;

async function start(pyodideURL, engineURL) {
  const { loadPyodide } = await import(pyodideURL + "pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: pyodideURL });
  const zip = await fetch(engineURL);
  if (!zip.ok) throw new Error("engine " + zip.status);
  pyodide.FS.mkdirTree("/engine");
  pyodide.FS.writeFile("/engine/games-scoring.zip", new Uint8Array(await zip.arrayBuffer()));
  pyodide.runPython("import sys; sys.path.insert(0, '/engine/games-scoring.zip')");
  pyodide.runPython(GLUE);
  replayFn = pyodide.globals.get("rami_replay");
}

self.addEventListener("message", async function (event) {
  const data = event.data || {};
  try {
    if (data.type === "init") {
      ready = ready || start(data.pyodide, data.engine);
      await ready;
      self.postMessage({ id: data.id, ok: true });
    } else if (data.type === "replay") {
      await ready;
      const page = { record: data.record, after: data.after };
      const marque = JSON.parse(replayFn(JSON.stringify(page)));
      self.postMessage({ id: data.id, ok: true, marque: marque });
    }
  } catch (error) {
    if (data.type === "init") ready = null;  // a later init tries again
    self.postMessage({ id: data.id, ok: false, error: String(error) });
  }
});
