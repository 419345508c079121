"""Where MOA is, for the tests that compare with it (the bench extra installs CapyMOA)."""

import importlib.util
import shutil
from pathlib import Path


def moa_jar() -> Path | None:
    """CapyMOA's bundled moa.jar when CapyMOA and java are installed, else None."""
    spec = importlib.util.find_spec("capymoa")
    if spec is None or not spec.submodule_search_locations or shutil.which("java") is None:
        return None
    jar = Path(list(spec.submodule_search_locations)[0]) / "jar" / "moa.jar"
    return jar if jar.exists() else None
