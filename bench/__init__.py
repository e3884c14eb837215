"""warlog's benchmark (issue #4): ``python bench/run.py`` measures warlog against raw baselines."""
