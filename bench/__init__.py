"""ClawQt benchmarks: each compares contenders side by side in one run and reports a ratio against a
goal. `python -m bench [NAME ...]` runs the named ones (or all), prints `NAME ratio=R goal=G` per
benchmark, and writes everything to .cache/bench/results.json (bench/results.json, the committed figures,
only with --save). A missed goal is reported, not an error."""
