"""The main window's commands: an action each, with its shortcut, its text and its menu."""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenuBar, QWidget

from simdup_gui.ui.i18n import current_language


class Commands(QObject):
    """Every command of the main window; the window connects what each one does."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.choose = QAction(window, shortcut=QKeySequence.StandardKey.Open)
        self.sample = QAction(window)
        self.scan_several = QAction(window)
        self.rescan = QAction(window, shortcut=QKeySequence("F5"))
        self.cancel = QAction(window, shortcut=QKeySequence("Esc"))
        self.export = QAction(window, shortcut=QKeySequence("Ctrl+E"))
        self.export_html = QAction(window)
        self.save_results = QAction(window, shortcut=QKeySequence.StandardKey.Save)
        self.open_results = QAction(window, shortcut=QKeySequence("Ctrl+Shift+O"))
        self.quit = QAction(window, shortcut=QKeySequence.StandardKey.Quit)
        self.settings = QAction(window, shortcut=QKeySequence("Ctrl+,"))
        self.mark_copies = QAction(window)
        self.clear_marks = QAction(window)
        self.trash = QAction(window)
        self.move = QAction(window)
        # on the current member (its right-click menu, and the Actions menu)
        self.toggle_mark = QAction(window, shortcut=QKeySequence(Qt.Key.Key_Space))
        self.toggle_mark.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)  # in the tree
        self.make_reference = QAction(window, shortcut=QKeySequence("Ctrl+R"))
        self.keep_apart = QAction(window, shortcut=QKeySequence("Ctrl+D"))
        self.not_duplicates = QAction(window)
        self.reference_folders = QAction(window)
        self.excluded_folders = QAction(window)
        self.invert_marks = QAction(window, shortcut=QKeySequence("Ctrl+I"))
        self.mark_rules = {  # mark copies by a criterion
            rule: QAction(window) for rule in ("folder", "path", "older", "smaller")
        }
        self.copy_marked = QAction(window)
        self.remove_from_results = QAction(window, shortcut=QKeySequence.StandardKey.Delete)
        self.remove_from_results.setShortcutContext(Qt.ShortcutContext.WidgetShortcut)
        self.restore = QAction(window)
        self.undo_last = QAction(window, shortcut=QKeySequence.StandardKey.Undo)
        self.keep_rules = {  # re-prioritize: which member of each group is kept
            rule: QAction(window)
            for rule in (
                "cleanest",
                "oldest",
                "newest",
                "largest",
                "smallest",
                "most_text",
                "shortest_path",
                "longest_path",
                "folder",
            )
        }
        self.pin = QAction(window, shortcut=QKeySequence("Ctrl+P"))
        self.unpin = QAction(window)
        self.open = QAction(window, shortcut=QKeySequence("Ctrl+Return"))
        self.reveal = QAction(window)
        self.library_add = QAction(window)
        self.library_check = QAction(window)
        self.library_check_article = QAction(window)
        self.library_stats = QAction(window)
        self.english = QAction("English", window, checkable=True)
        self.chinese = QAction("中文", window, checkable=True)

    @property
    def on_member(self) -> list[QAction]:
        """The commands that act on the current member."""
        return [
            self.toggle_mark,
            self.make_reference,
            self.keep_apart,
            self.remove_from_results,
            self.pin,
            self.unpin,
            self.open,
            self.reveal,
        ]

    @property
    def on_result(self) -> list[QAction]:
        """The commands that need a scan's result."""
        return [
            self.export,
            self.export_html,
            self.save_results,
            self.mark_copies,
            self.clear_marks,
            self.invert_marks,
            *self.mark_rules.values(),
            self.trash,
            self.move,
            self.copy_marked,
            *self.keep_rules.values(),
        ]

    def fill_menus(self, bar: QMenuBar) -> None:
        """The File, Library, Actions and Language menus."""
        self.file_menu = bar.addMenu("")
        self.file_menu.addActions(
            [
                self.choose,
                self.sample,
                self.scan_several,
                self.rescan,
                self.export,
                self.export_html,
                self.save_results,
                self.open_results,
                self.restore,
                self.undo_last,
                self.quit,
            ]
        )
        self.library_menu = bar.addMenu("")
        self.library_menu.addActions(
            [self.library_check, self.library_check_article, self.library_add, self.library_stats]
        )
        self.actions_menu = bar.addMenu("")
        self.actions_menu.addActions([self.mark_copies, self.clear_marks, self.invert_marks])
        self.mark_menu = self.actions_menu.addMenu("")
        self.mark_menu.addActions(list(self.mark_rules.values()))
        self.actions_menu.addActions([self.trash, self.move, self.copy_marked])
        self.actions_menu.addSeparator()
        self.actions_menu.addActions(
            [self.not_duplicates, self.reference_folders, self.excluded_folders]
        )
        self.keep_menu = self.actions_menu.addMenu("")
        self.keep_menu.addActions(list(self.keep_rules.values()))
        self.actions_menu.addSeparator()
        self.actions_menu.addActions(self.on_member)
        self.language_menu = bar.addMenu("")
        self.language_menu.addActions([self.english, self.chinese])

    def set_state(self, *, busy: bool, has_result: bool, has_folder: bool) -> None:
        """Enable what can be done now: while a scan runs, only cancelling it."""
        self.cancel.setEnabled(busy)
        self.choose.setEnabled(not busy)
        self.sample.setEnabled(not busy)
        self.open_results.setEnabled(not busy)
        self.scan_several.setEnabled(not busy)
        library = (self.library_add, self.library_check, self.library_check_article)
        for action in (*library, self.library_stats):
            action.setEnabled(not busy)
        self.rescan.setEnabled(not busy and has_folder)
        for action in self.on_result:
            action.setEnabled(not busy and has_result)

    def retranslate(self) -> None:
        """Set every command's text and the menus' titles in the current language."""
        self.choose.setText(self.tr("Choose folder…"))
        self.sample.setText(self.tr("Try the sample folder"))
        self.scan_several.setText(self.tr("Scan several folders…"))
        self.rescan.setText(self.tr("Scan again"))
        self.cancel.setText(self.tr("Cancel"))
        self.export.setText(self.tr("Export CSV…"))
        self.export_html.setText(self.tr("Export HTML report…"))
        self.save_results.setText(self.tr("Save results…"))
        self.open_results.setText(self.tr("Open saved results…"))
        self.quit.setText(self.tr("Quit"))
        self.settings.setText(self.tr("Settings…"))
        self.mark_copies.setText(self.tr("Mark all but references"))
        self.clear_marks.setText(self.tr("Clear marks"))
        self.trash.setText(self.tr("Send marked to trash…"))
        self.move.setText(self.tr("Move marked to…"))
        self.toggle_mark.setText(self.tr("Mark or unmark"))
        self.make_reference.setText(self.tr("Make reference"))
        self.keep_apart.setText(self.tr("Not a duplicate of the reference"))
        self.remove_from_results.setText(self.tr("Remove from results"))
        self.restore.setText(self.tr("Restore from a manifest…"))
        self.undo_last.setText(self.tr("Undo the last move or trash"))
        self.keep_menu.setTitle(self.tr("Keep in each group"))
        self.keep_rules["cleanest"].setText(self.tr("the cleanest copy (nothing added)"))
        self.keep_rules["oldest"].setText(self.tr("the oldest file"))
        self.keep_rules["newest"].setText(self.tr("the newest file"))
        self.keep_rules["largest"].setText(self.tr("the largest file"))
        self.keep_rules["smallest"].setText(self.tr("the smallest file"))
        self.keep_rules["most_text"].setText(self.tr("the file with the most text"))
        self.keep_rules["shortest_path"].setText(self.tr("the file with the shortest path"))
        self.keep_rules["longest_path"].setText(self.tr("the file with the longest path"))
        self.keep_rules["folder"].setText(self.tr("a file in the current file's folder"))
        self.not_duplicates.setText(self.tr("Not-duplicates list…"))
        self.reference_folders.setText(self.tr("Reference folders…"))
        self.excluded_folders.setText(self.tr("Excluded folders…"))
        self.invert_marks.setText(self.tr("Invert marks"))
        self.mark_menu.setTitle(self.tr("Mark copies"))
        self.mark_rules["folder"].setText(self.tr("in the current file's folder"))
        self.mark_rules["path"].setText(self.tr("whose path contains…"))
        self.mark_rules["older"].setText(self.tr("older than their reference"))
        self.mark_rules["smaller"].setText(self.tr("smaller than their reference"))
        self.copy_marked.setText(self.tr("Copy marked to…"))
        self.pin.setText(self.tr("Compare others with this file"))
        self.unpin.setText(self.tr("Compare with the reference"))
        self.open.setText(self.tr("Open in editor"))
        self.reveal.setText(self.tr("Show in folder"))
        self.library_add.setText(self.tr("Add a folder to a library…"))
        self.library_check.setText(self.tr("Check new articles against a library…"))
        self.library_check_article.setText(self.tr("Check one article against a library…"))
        self.library_stats.setText(self.tr("Library statistics…"))
        self.library_menu.setTitle(self.tr("&Library"))
        self.file_menu.setTitle(self.tr("&File"))
        self.actions_menu.setTitle(self.tr("&Actions"))
        self.language_menu.setTitle(self.tr("Lan&guage"))
        language = current_language()
        self.english.setChecked(language == "en")
        self.chinese.setChecked(language != "en")
