"""The bundled Midgard: Heroic Battles scenarios (``*.toml``)."""
