from __future__ import annotations

import sys

from bench.evening.run import main

sys.exit(main())
