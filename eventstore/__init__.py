"""The append-only, hash-chained event log: stores, codec, chain, forks, snapshots."""
