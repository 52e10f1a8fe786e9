"""First run: connect a real workspace or try the built-in demo."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDialog, QLabel, QPushButton, QVBoxLayout, QWidget


class WelcomeDialog(QDialog):
    connectChosen = Signal()
    demoChosen = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Welcome to Postdesk")
        self.setMinimumWidth(420)
        title = QLabel("Welcome to Postdesk")
        title.setObjectName("welcomeTitle")
        title.setStyleSheet("font-size: 20px; font-weight: 600;")
        text = QLabel(
            "Plan, compose and watch your posts. Connect a workspace with its API key, or look "
            "around in a demo workspace first."
        )
        text.setWordWrap(True)
        self.connect_button = QPushButton("Connect a workspace…")
        self.connect_button.setDefault(True)
        self.demo_button = QPushButton("Try the demo workspace")
        self.connect_button.clicked.connect(self._connect)
        self.demo_button.clicked.connect(self._demo)
        layout = QVBoxLayout(self)
        layout.setSpacing(12)
        layout.addWidget(title, alignment=Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(text)
        layout.addWidget(self.connect_button)
        layout.addWidget(self.demo_button)

    def _connect(self) -> None:
        self.accept()
        self.connectChosen.emit()

    def _demo(self) -> None:
        self.accept()
        self.demoChosen.emit()
