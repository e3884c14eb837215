"""The bundled Battle for Armageddon scenarios (``*.toml``), warlog's own invention."""
