"""Engine-neutral rules machinery shared by every ruleset."""
