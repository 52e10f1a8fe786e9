"""The shell's own commands as ActionSpecs (File, View, Go, Workspace, Help)."""

from __future__ import annotations

from typing import Protocol

from ui.action_spec import ActionSpec
from ui.sections import SECTIONS


class ShellCommands(Protocol):
    def show_section(self, name: str) -> None: ...
    def new_post(self) -> None: ...
    def import_csv(self) -> None: ...
    def export_csv(self) -> None: ...
    def quit(self) -> None: ...
    def refresh(self) -> None: ...
    def choose_theme(self, choice: str) -> None: ...
    def open_palette(self) -> None: ...
    def show_shortcuts(self) -> None: ...
    def show_about(self) -> None: ...
    def connect_workspace(self) -> None: ...
    def replace_key(self) -> None: ...
    def remove_workspace(self) -> None: ...
    def reset_demo(self) -> None: ...
    def has_session(self) -> bool: ...
    def has_saved_workspace(self) -> bool: ...


def shell_specs(commands: ShellCommands) -> list[ActionSpec]:
    specs = [
        ActionSpec("file.new_post", "New post", commands.new_post, "Ctrl+N", "File",
                   help="Open Compose"),
        ActionSpec("file.import_csv", "Import CSV…", commands.import_csv, menu="File",
                   enabled=commands.has_session,
                   help="Create posts from a spreadsheet (content, accounts, scheduled_at…)"),
        ActionSpec("file.export_csv", "Export calendar to CSV…", commands.export_csv,
                   menu="File", enabled=commands.has_session,
                   help="Every post of the workspace, in the import format"),
        ActionSpec("file.quit", "Quit", commands.quit, "Ctrl+Q", "File",
                   help="Close Postdesk (the demo server stops too)"),
        ActionSpec("view.refresh", "Refresh now", commands.refresh, "F5", "View",
                   enabled=commands.has_session, help="Sync the workspace now"),
        ActionSpec("view.palette", "Command palette…", commands.open_palette, "Ctrl+K", "View",
                   help="Find any action, section, account or post by typing"),
        ActionSpec("view.theme.system", "Theme: System", lambda: commands.choose_theme("system"),
                   menu="View", help="Light or dark as the desktop is (remembered)"),
        ActionSpec("view.theme.light", "Theme: Light", lambda: commands.choose_theme("light"),
                   menu="View", help="Dark text on light backgrounds (remembered)"),
        ActionSpec("view.theme.dark", "Theme: Dark", lambda: commands.choose_theme("dark"),
                   menu="View", help="Light text on dark backgrounds (remembered)"),
    ]  # fmt: skip
    for index, name in enumerate(SECTIONS):
        specs.append(
            ActionSpec(
                f"go.{name}",
                f"Go to {name.capitalize()}",
                lambda n=name: commands.show_section(n),  # type: ignore[misc]
                f"Ctrl+{index + 1}",
                "Go",
                help=f"Show {name.capitalize()}",
            )
        )
    specs += [
        ActionSpec("workspace.connect", "Connect a workspace…", commands.connect_workspace,
                   menu="Workspace", help="Add a workspace with its API key"),
        ActionSpec("workspace.replace_key", "Replace API key…", commands.replace_key,
                   menu="Workspace", enabled=commands.has_saved_workspace,
                   help="Enter a new key for this workspace"),
        ActionSpec("workspace.remove", "Remove this workspace…", commands.remove_workspace,
                   menu="Workspace", enabled=commands.has_saved_workspace,
                   help="Forget its key and local cache (nothing changes on the server)"),
        ActionSpec("workspace.reset_demo", "Reset demo data…", commands.reset_demo,
                   menu="Workspace", help="Start the demo workspace afresh"),
        ActionSpec("help.shortcuts", "Keyboard shortcuts", commands.show_shortcuts, "F1",
                   "Help", help="List every shortcut"),
        ActionSpec("help.about", "About Postdesk", commands.show_about, menu="Help",
                   help="Version, API address and data folder"),
    ]  # fmt: skip
    return specs
