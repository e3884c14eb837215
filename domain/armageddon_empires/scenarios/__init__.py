"""The bundled Armageddon Empires scenarios (``*.toml``), found with importlib.resources."""
