"""A workspace's spelling settings: whether to check, in which language, and the user's own
dictionary. One small JSON file beside the workspace's drafts file (nothing secret in it)."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path

from app.workspaces.profiles import write_atomically


def spelling_settings_path(drafts_file: Path) -> Path:
    return drafts_file.with_name(drafts_file.name.split(".")[0] + ".spelling.json")


@dataclass
class SpellingSettings:
    path: Path | None = None
    enabled: bool = True
    language: str = ""  # "": follow the system's locale
    words: list[str] = field(default_factory=list)
    problem: str = ""  # why the last save failed, in words

    @classmethod
    def load(cls, path: Path | None) -> SpellingSettings:
        settings = cls(path)
        if path is None or not path.exists():
            return settings
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            settings.problem = f"The spelling settings in {path} could not be read; using defaults."
            return settings
        if isinstance(data, dict):
            settings.enabled = data.get("enabled") is not False
            language = data.get("language")
            settings.language = language if isinstance(language, str) else ""
            words = data.get("words")
            if isinstance(words, list):
                settings.words = sorted({str(w) for w in words if str(w).strip()})
        return settings

    def add_word(self, word: str) -> None:
        if word not in self.words:
            self.words = sorted({*self.words, word})
        self.save()

    def save(self) -> None:
        if self.path is None:
            return
        data = {"enabled": self.enabled, "language": self.language, "words": self.words}
        self.problem = ""
        with contextlib.suppress(OSError):
            write_atomically(self.path, json.dumps(data, ensure_ascii=False, indent=1))
            return
        self.problem = f"The spelling settings could not be saved to {self.path}."
