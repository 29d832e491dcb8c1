"""Hand-written Python versions of bundled games: the references issue 38's speed targets are
measured against (scripts/bench_handwritten.py), each checked move for move against the generated
module (scripts/lockstep_handwritten.py). Benchmark references, not part of the package.

Each module has `new_state(seed, players)`, `PLAYERS`, `OPTIONS` (the readings it plays: the rule
set's options the generated module is given to play the same game), and states with
`legal_actions()` (actions as the module likes them), `apply(action)`, `apply_text(text)`,
`action_text(action)`, `is_terminal()`, `scores()`, `winners()`.
"""
