"""The words, numbers and times the outputs give people, in English or Chinese.

``counted`` for the command line's English summaries; :class:`Words` for the reports an editor
reads (the HTML report): its phrases in the report's language, sizes in KB and MB, times in
local time to the minute.
"""

from __future__ import annotations

import locale
import os
import time
from dataclasses import dataclass

LANGUAGES = ("en", "zh")


def counted(number: int, noun: str) -> str:
    """``number`` and ``noun``, plural (with an s) unless the number is one."""
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def human_size(size: int) -> str:
    """A byte count for people: 1.2 KB, 3.4 MB."""
    value = float(size)
    for unit in ("B", "KB", "MB", "GB"):
        if value < 1024 or unit == "GB":
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{size} B"


def local_minute(mtime_ns: int) -> str:
    """A time in local time, to the minute ("" for none)."""
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(mtime_ns / 1e9)) if mtime_ns else ""


def system_language() -> str:
    """The reports' language by default: Chinese where the locale is Chinese, else English."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        value = os.environ.get(name, "")
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    found = locale.getlocale()[0] or ""
    return "zh" if found.lower().startswith(("zh", "chinese")) else "en"


_CHINESE = {
    "simdup report": "simdup 报告",
    "{files}, {groups}, {duplicates}, {unreadable} unreadable": (
        "{files}，{groups}，{duplicates}，{unreadable} 个无法读取"
    ),
    "file": "个文件",
    "group": "组",
    "duplicate": "个重复",
    "Group {id} · {count} files": "第 {id} 组 · {count} 个文件",
    (
        "The copy kept has short lines a copy lacks ({lines} lines, {chars} characters): a"
        " header, a notice or an ad may still be in it."
    ): "保留的版本有副本没有的短行（{lines} 行，{chars} 字）：可能仍带页眉、声明或广告。",
    "File": "文件",
    "Title": "标题",
    "Similarity": "相似度",
    "Distance": "距离",
    "Size": "大小",
    "Modified": "修改时间",
    "Encoding": "编码",
    "reference": "保留",
    "copy": "副本",
    "kept": "参照文件夹",
    "inside": "包含于其中",
    "Not read": "未读取",
    "Why": "原因",
    "{name}: {count} differences": "{name}：{count} 处不同",
    "{name}: 1 difference": "{name}：1 处不同",
    "and {count} more": "另有 {count} 处",
    "The reference could not be read again: {why}": "无法再次读取保留的文件：{why}",
    "{name} could not be read again: {why}": "无法再次读取 {name}：{why}",
}


@dataclass(frozen=True)
class Words:
    """A report's phrases in one language (``en`` or ``zh``)."""

    language: str = "en"

    def __call__(self, phrase: str, **values: object) -> str:
        """``phrase`` in the report's language, with ``values`` filled in."""
        said = _CHINESE.get(phrase, phrase) if self.language == "zh" else phrase
        return said.format(**values)

    def count(self, number: int, noun: str) -> str:
        """``3 files`` or ``3 个文件``."""
        if self.language == "zh":
            return f"{number} {_CHINESE[noun]}"
        return counted(number, noun)
