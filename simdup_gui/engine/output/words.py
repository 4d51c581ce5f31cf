"""The words, numbers and times the outputs give people, in English or Chinese.

``counted`` for the command line's English summaries; :class:`Words` for the reports an editor
reads (the HTML and CSV reports): its phrases in the report's language, the CSV report's
column names, roles and notes, sizes in KB and MB, times in local time to the minute. A
report read back (``simdup apply``) knows both languages' columns, roles and method notes
(:func:`english_column`, :func:`english_role`).
"""

from __future__ import annotations

import locale
import os
import re
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
    " ({conditions}).": "（{conditions}）。",
    "yes": "是",
    "link": "个链接",
    "hidden or tool folder": "个隐藏或工具文件夹",
    (
        "simdup: {files} ({megabytes} MB{cached}) in {seconds} s{state}: {groups},"
        " {duplicates}, {errors} unreadable{links}{skipped} ({conditions})"
    ): (
        "simdup：{files}（{megabytes} MB{cached}），用时 {seconds} 秒{state}：{groups}，"
        "{duplicates}，{errors} 个无法读取{links}{skipped}（{conditions}）"
    ),
    " (cancelled: partial results)": "（已取消：部分结果）",
    ", {count} not measured again (the error rows say why)": (
        "，{count} 篇未能再次测量（原因见错误行）"
    ),
    (
        "simdup: {new} new, {changed} changed, {unchanged} unchanged, {gone} gone,"
        " {unreadable} unreadable{state}"
    ): (
        "simdup：新增 {new} 篇，更新 {changed} 篇，未变 {unchanged} 篇，消失 {gone} 篇，"
        "{unreadable} 篇无法读取{state}"
    ),
    " (nothing changed)": "（文章库没有变化）",
    "simdup: {matched} of {checked} with a match in the library": (
        "simdup：{checked} 篇中有 {matched} 篇在文章库中有相似文章"
    ),
    ", {count} from cache": "，{count} 个来自缓存",
    ", {links} not read": "，{links}未读取",
    ", {folders} skipped": "，{folders}已跳过",
    ", {files} of other types not read ({kinds}; --ext adds them)": (
        "，{files}属于其他类型，未读取（{kinds}；用 --ext 加入）"
    ),
    "simdup: {files} files: {copied} copied at least {share} % of their text from another": (
        "simdup：{files} 个文件：{copied} 篇至少 {share}% 的文字复制自另一篇"
    ),
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
    "reference": "参照",
    "copy": "副本",
    "kept": "参照文件夹",
    "inside": "包含于其中",
    "Not read": "未读取",
    "Why": "原因",
    "{name}: {count} differences": "{name}：{count} 处不同",
    "{name}: 1 difference": "{name}：1 处不同",
    "and {count} more": "另有 {count} 处",
    "The reference could not be read again: {why}": "无法再次读取参照文件：{why}",
    "{name} could not be read again: {why}": "无法再次读取 {name}：{why}",
    "simdup reuse report": "simdup 查重报告",
    "simdup reuse: {root}": "simdup 查重：{root}",
    "{count} articles copied at least {share} % of their text from another.": (
        "{count} 篇文章至少 {share}% 的文字复制自另一篇。"
    ),
    "copied in all: {total} %; most from {name}: {share} % in {passages} passages": (
        "总文字复制比：{total}%；单篇最大复制比：{name}，{share}%，{passages} 处"
    ),
    "without cited text: {quotes} %; without one's own articles: {own} %": (
        "去除引用文献复制比：{quotes}%；去除本人已发表文献复制比：{own}%"
    ),
    "(the texts cannot be read again)": "（无法再次读取这两篇文字）",
    "marked: {verbatim}; {reworded}": "标注：{verbatim}；{reworded}",
    "copied word for word": "逐字复制",
    "reworded or retold": "改写或转述",
    "each paragraph's copied share: {shares}": "各段复制比：{shares}",
    "also in: {names}": "也见于：{names}",
}


_CHINESE_COLUMNS = {  # the CSV report's columns
    "group_id": "组号",
    "role": "角色",
    "marked": "已标记",
    "file_size": "文件大小",
    "last_modified": "最后修改",
    "path": "路径",
    "title": "标题",
    "distance": "距离",
    "similarity": "相似度",
    "contained": "包含比例",
    "encoding": "编码",
    "size": "大小（字节）",
    "modified": "修改时间",
    "fingerprint": "指纹",
    "error": "错误",
    "chars": "字数",
    "features": "特征数",
    "boilerplate": "模板占比",
    "decoded_by": "解码方式",
    "notes": "备注",
}
_CHINESE_REUSE_COLUMNS = {  # the reuse report's columns
    "path": "文章",
    "source": "来源",
    "share": "复制比",
    "source_share": "来源被复制比",
    "passages": "复制片段数",
    "largest": "最长片段字数",
    "also_in": "也见于",
    "total_share": "总文字复制比",
    "total_without_quotes": "去除引用文献复制比",
    "total_without_own": "去除本人已发表文献复制比",
    "largest_source": "单篇最大复制来源",
    "own_source": "本人已发表",
    "error": "错误",
}
_CHINESE_ROLES = {  # what a row of the CSV report is (the app's words, as the HTML report's)
    "reference": _CHINESE["reference"],
    "duplicate": _CHINESE["copy"],
    "kept": _CHINESE["kept"],
    "unique": "无重复",
    "error": "错误",
    "link": "链接",
}
_CHINESE_NOTES = (  # a note's pattern in English, and what it says in Chinese
    (r"method: (\w+), (\d+) longest", "方法：{0}，最长 {1} 句"),
    (r"method: (\w+)", "方法：{0}"),
    (r"contained in the reference", "包含于参照文件中"),
    (r"contains the reference", "包含参照文件"),
    (
        r"carries (\d+) short lines? \((\d+) characters\) a copy lacks: check it",
        "带有副本没有的 {0} 个短行（{1} 字）：请核对",
    ),
    (r"file name is not valid UTF-8", "文件名不是有效的 UTF-8"),
    (r"only the first (\d+) bytes read", "只读取了前 {0} 字节"),
    (r"(\d+) undecodable bytes replaced", "{0} 个无法解码的字节已替换"),
    (
        r"page kept whole: what looked like site template was most of it",
        "整页保留：看似网站模板的内容占了大半",
    ),
    (r"short text: (\d+) distinct words?", "文本过短：{0} 个不同的词"),
    # what a scan's pairs had to meet (ScanOptions.describe)
    (r"k=(\d+), text similarity >= (\S+)", "k={0}，文本相似度 ≥ {1}"),
    (r"method (\w+): (.+)", "方法 {0}：{1}"),
    (r"k=(\d+), similarity >= (\S+)", "k={0}，相似度 ≥ {1}"),
    (r"similarity >= (\S+)", "相似度 ≥ {0}"),
    (r"no floor", "无下限"),
    (r"(\d+) of the (\d+) longest shared", "最长的 {1} 句中有 {0} 句相同"),
)
_CHINESE_REASONS = (  # why a file was not read, in English, and in Chinese ({0}: said again)
    (r"empty file", "空文件"),
    (
        r"old Word format \(\.doc\): save it as \.docx to compare it",
        "旧版 Word 格式（.doc）：另存为 .docx 后才能比较",
    ),
    (
        r"WPS Writer format \(\.wps\): save it as \.docx to compare it",
        "WPS 文字格式（.wps）：另存为 .docx 后才能比较",
    ),
    (
        r"encrypted \(password-protected\) (\w+)(?: file)?: not read",
        "已加密（有密码保护）的 {0} 文件：未读取",
    ),
    (r"no text layer — a scanned image: not read", "没有文字层（扫描图像）：未读取"),
    (
        r"no readable text: the PDF's fonts map to no characters",
        "没有可读文字：PDF 的字体无法对应到字符",
    ),
    (r"damaged (\w+) file \((.+)\)", "{0} 文件已损坏（{1}）"),
    (
        r"refused: unpacks to (\d+) MB \(over (\d+) MB: a zip bomb\?\)",
        "已拒绝：解压后有 {0} MB（超过 {1} MB，疑似压缩炸弹）",
    ),
    (
        r"larger than --max-mb: a document is read whole or not at all",
        "大于 --max-mb：文档只能整篇读取",
    ),
    (
        r"not read: (\S+) is not among the file types read \(Settings\)",
        "未读取：{0} 不在读取的文件类型中（见设置）",
    ),
    (r"binary file \(contains NUL bytes\)", "二进制文件（含 NUL 字节）"),
    (r"binary file \((.+)\)", "二进制文件（{0}）"),
    (
        r"undecodable bytes: not UTF-8, GB18030, Big5 or a known encoding",
        "无法解码：不是 UTF-8、GB18030、Big5 或其他已知编码",
    ),
    (
        r"undecodable bytes: (\d+) of (\d+) characters bad as (\S+)",
        "无法解码：按 {2} 解码时 {1} 个字符中有 {0} 个出错",
    ),
    (r"no text", "没有文字"),
    (r"dangling symbolic link", "失效的符号链接"),
    (r"symbolic link to a folder, not followed", "指向文件夹的符号链接，未跟随"),
    (r"symbolic link to (.+) \(read there\)", "指向 {0} 的符号链接（已在该处读取）"),
    (
        r"symbolic link to (.+) \(outside the folder: not read\)",
        "指向 {0} 的符号链接（在文件夹之外，未读取）",
    ),
    (r"a FIFO, not read", "命名管道，未读取"),
    (r"a character device, not read", "字符设备，未读取"),
    (r"a block device, not read", "块设备，未读取"),
    (r"a socket, not read", "套接字，未读取"),
    (r"file vanished before it was read", "文件在读取前已不存在"),
    (r"larger than (\d+) bytes, skipped", "大于 {0} 字节，已跳过"),
    (r"changed during the run", "运行期间文件已改变"),
    (r"cannot stat: (.+)", "无法获取文件信息：{0}"),
    (r"folder not readable: (.+)", "文件夹无法读取：{0}"),
    (r"could not be read: (.+)", "无法读取：{0}"),
    (r"text could not be fingerprinted: (.+)", "无法计算文字指纹：{0}"),
    (r"DecodeError: (.+)", "{0}"),
    (r"(?:\[Errno \d+\] )?Permission denied(?:: .*)?", "没有权限"),
    (r"(?:\[Errno \d+\] )?No such file or directory(?:: .*)?", "文件不存在"),
    (r"(?:\[Errno \d+\] )?Is a directory(?:: .*)?", "这是一个文件夹"),
)
_NOTES = [(re.compile(pattern), chinese) for pattern, chinese in _CHINESE_NOTES]
_REASONS = [(re.compile(pattern), chinese) for pattern, chinese in _CHINESE_REASONS]
_ENGLISH_COLUMNS = {chinese: english for english, chinese in _CHINESE_COLUMNS.items()}
_ENGLISH_ROLES = {chinese: english for english, chinese in _CHINESE_ROLES.items()}


def english_column(name: str) -> str:
    """A CSV report's column as its English name (a Chinese report's too)."""
    return _ENGLISH_COLUMNS.get(name, name)


def english_role(role: str) -> str:
    """A CSV report's role as its English word (a Chinese report's too)."""
    return _ENGLISH_ROLES.get(role, role)


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

    def column(self, name: str) -> str:
        """A CSV report's column name."""
        return _CHINESE_COLUMNS[name] if self.language == "zh" else name

    def reuse_column(self, name: str) -> str:
        """A reuse report's column name."""
        return _CHINESE_REUSE_COLUMNS[name] if self.language == "zh" else name

    def role(self, role: str) -> str:
        """What a CSV report's row is: ``reference``, ``duplicate`` (参照, 副本) and so on."""
        return _CHINESE_ROLES[role] if self.language == "zh" else role

    def note(self, note: str) -> str:
        """A report's note (the engine says it in English): said in the report's language.

        A note no pattern knows stays as it is.
        """
        return self._said(note, _NOTES)

    def reason(self, reason: str) -> str:
        """Why a file was not read (the engine says it in English), in the report's language.

        A reason that holds another (``could not be read: empty file``) says both; one no
        pattern knows stays as it is.
        """
        return self._said(reason, _REASONS)

    def _said(self, text: str, patterns: list[tuple[re.Pattern[str], str]]) -> str:
        """``text`` by the first of ``patterns`` it matches whole, its parts said too."""
        if self.language != "zh":
            return text
        for pattern, chinese in patterns:
            found = pattern.fullmatch(text)
            if found:
                return chinese.format(*(self._said(part, patterns) for part in found.groups()))
        return text


ENGLISH = Words("en")  # the reports' words by default
