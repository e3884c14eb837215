"""``warlog fuzz``: fork recorded games at any batch end, drive them with generated legal and
illegal commands, check everything after every step, and shrink each failure to a small log that
replays as a regression fixture.

- ``sources``: the recorded games (game ids, files, folders) in one memory arbiter, with their
  fork points;
- ``strategies``: the steps Hypothesis draws (legal commands and illegal ones);
- ``example``: one example, a fork driven step by step, and ``checks``: what is checked after
  each step; ``noninterference``: the twin games that prove what a player may not see;
- ``search``: Hypothesis searching and shrinking; ``fixture``: a failure written as a log and
  its failing step, and replayed; ``report``: the summary; ``run``: the whole command.
"""

#: the defaults of ``warlog fuzz`` (here, so that the command line reads them without loading
#: Hypothesis): seconds of search, examples per ruleset, steps per example, the failures' folder
BUDGET = 60.0
EXAMPLES = 300
STEPS = 25
OUT = "fuzz-failures"
