"""Battle for Armageddon (Games Workshop, 1992): areas, stacks of counters, a d6 on an odds CRT.

The ruleset is ``ruleset.RULESET``, registered as ``battle-for-armageddon``.
"""
