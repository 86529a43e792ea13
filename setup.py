"""Build hook: ship the editable top-level ``templates/`` and the demo bundle as package data.

The repository keeps ``templates/`` and ``sample_events/`` at the top level (the sources a
club edits); a wheel copies them to ``referee_app/data/templates`` and
``referee_app/data/sample_events`` so an installed app has its templates and its demo.
Everything else is configured in ``pyproject.toml``.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLED = (("templates", "*.toml"), ("sample_events", "demo-*.json"))


class BuildPyWithData(build_py):
    def run(self) -> None:
        super().run()
        for folder, pattern in BUNDLED:
            dest = Path(self.build_lib) / "referee_app" / "data" / folder
            self.mkpath(str(dest))
            for f in sorted((ROOT / folder).glob(pattern)):
                self.copy_file(str(f), str(dest / f.name))


setup(cmdclass={"build_py": BuildPyWithData})
