"""How long `rulewright lsp` takes on the bundled rule files (api/ruleindex.py, in-process): for each,
the analysis made after an edit (the checker's problems and the index) and the slowest hover,
go-to-definition and completion together, over every seventh name of the file; and how many of
those names a hover explains. Run from the checkout: `.venv/bin/python scripts/measure_lsp.py`."""

from __future__ import annotations

import re
import time
from pathlib import Path

from rulewright import ruleindex


def main() -> None:
    cache: dict[Path, ruleindex.Analysis] = {}
    for path in sorted(Path("rules").glob("*/*.yaml")):
        text = path.read_text(encoding="utf-8")
        start = time.perf_counter()
        a = ruleindex.analyse(path, text, {}, cache)
        analysed = time.perf_counter() - start
        slowest, explained, asked = 0.0, 0, 0
        for m in list(re.finditer(r"[A-Za-z_]\w*", text))[::7]:
            line = text.count("\n", 0, m.start())
            col = m.start() - (text.rfind("\n", 0, m.start()) + 1)
            start = time.perf_counter()
            shown = ruleindex.hover(a, line, col)
            ruleindex.definition(a, line, col)
            ruleindex.complete(a, line, col)
            slowest = max(slowest, time.perf_counter() - start)
            asked += 1
            explained += shown is not None
        print(f"{path}: analysis {analysed:.2f} s, slowest request {slowest * 1000:.0f} ms, "
              f"hover on {explained} of {asked} words (the others: keywords, comments, prose)")


if __name__ == "__main__":
    main()
