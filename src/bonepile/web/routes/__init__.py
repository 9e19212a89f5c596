"""The HTTP routes: each module's ``router(...)`` is included by ``web.app``."""
