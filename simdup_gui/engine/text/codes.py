"""How text is coded for the kernels: character classes, constants, the notice words."""

from __future__ import annotations

import numpy as np

WORD, IDEOGRAPH, SPACE = np.uint8(1), np.uint8(2), np.uint8(4)  # bits of tokens.char_flags()
TOKEN_BASE = 0x100000001B3  # the token hash's polynomial base (odd)
GOLDEN = 0x9E3779B97F4A7C15  # mixes the token's length in
MIXERS = (0xBF58476D1CE4E5B9, 0x94D049BB133111EB)  # SplitMix64's multipliers

# Classes of a character for its telltales (text/telltales.py), one bit each
(
    TELL_IDEOGRAPH,  # an ideograph
    TELL_RARE,  # an ideograph outside GB 2312
    TELL_ASCII_PUNCTUATION,  # , ; : ! ?
    TELL_FULL_PUNCTUATION,  # their full-width forms, and 。
    TELL_FULL_ALNUM,  # a full-width letter or digit
    TELL_HALF_ALNUM,  # an ASCII letter or digit
    TELL_SPACE,  # whitespace, as str.split() sees it
    TELL_OTHER_BREAK,  # a line break str.splitlines() knows besides the line feed
) = (np.uint8(1 << bit) for bit in range(8))
ASTRAL_IDEOGRAPHS = (0x20000, 0x40000)  # planes 2 and 3: ideographs, none in GB 2312
TELLTALE_COUNTS = 9  # what telltale_counts gives: see telltale_kernels.py
NOTICE_WORDS = (  # lower case: a short line holding one reads like a repost notice or an ad
    "转载",
    "来源:",
    "来源：",
    "出处:",
    "出处：",
    "版权",
    "著作权",
    "责任编辑",
    "原标题",
    "原文链接",
    "阅读原文",
    "广告",
    "推广",
    "声明:",
    "声明：",
    "免责",
    "公众号",
    "扫码",
    "二维码",
    "关注我们",
    "点击",
    "订阅",
    "热门",
    "推荐阅读",
    "相关阅读",
    "相关新闻",
    "相关文章",
    "首页",
    "上一篇",
    "下一篇",
    "分享到",
    "评论",
    "copyright",
    "©",
    "all rights reserved",
    "reprint",
    "repost",
    "originally published",
    "source:",
    "advertis",
    "sponsored",
    "subscribe",
    "newsletter",
    "sign up",
    "related articles",
    "related posts",
    "related stories",
    "share this",
    "read more",
    "http://",
    "https://",
    "www.",
)
