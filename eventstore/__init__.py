"""The append-only, hash-chained event log and the rule-agnostic application around it."""
