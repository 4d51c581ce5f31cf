"""A labelled set of text files in the encodings editors receive, made from sentences written here.

Each language's sentences are ordinary prose (news, notices, letters), with the characters its
legacy encodings exist for: curly quotes and accents (Windows-1252), umlauts and ß (Latin-1),
kana and kanji (Shift-JIS, EUC-JP), Hangul (EUC-KR), simplified and traditional Chinese. A file
is a random run of them: one short sentence up to several paragraphs, with LF or CRLF.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

ENGLISH = [
    "We don’t think it’s right to close the library on Sundays, said the mayor’s office.",
    "The café on Main Street reopened on Monday after a two‑week renovation.",
    "“It’s the first time in years,” said Renée, who has run the shop since 1998.",
    "Tickets cost €12 for adults — children under twelve go free.",
    "The committee’s report, due in March, will be published on the council’s website.",
    "Residents say the new bus timetable leaves them waiting for half an hour… or more.",
    "Our résumé workshop runs every Thursday; bring a printed copy and a pen.",
    "The school’s naïve art exhibition drew more visitors than the organisers expected.",
    "A spokesman declined to comment on the “ongoing investigation” into the fire.",
    "Volunteers collected 300 kg of litter from the riverbank – a record for the group.",
    "The coach said he was ‘very proud’ of the team after Saturday’s 2–1 win.",
    "Please note: the office will be closed from 24 December to 2 January.",
    "Sales rose 4% in the third quarter, helped by strong demand for winter clothing.",
    "The band played until midnight, and nobody wanted to go home.",
]
GERMAN = [
    "Die Straße führt am alten Rathaus vorbei zum Marktplatz.",
    "Am Wochenende öffnet das Museum ausnahmsweise schon um neun Uhr.",
    "Die Bürgerinnen und Bürger können ihre Vorschläge bis Ende März einreichen.",
    "Der Bürgermeister äußerte sich zufrieden über die Ergebnisse der Umfrage.",
    "Für Kinder unter zwölf Jahren ist der Eintritt frei.",
    "Wegen Bauarbeiten fährt die Straßenbahn nur bis zum Hauptbahnhof.",
    "Das Konzert im Schloßpark wurde wegen des Regens verschoben.",
    "Die Schülerinnen gewannen den ersten Preis beim Wettbewerb für junge Forscher.",
    "Im Frühjahr werden am Flußufer neue Bäume gepflanzt.",
    "Über hundert Gäste kamen zur Eröffnung der Bücherei.",
    "Die Gemeinde prüft, ob die Müllabfuhr künftig öfter kommen kann.",
    "Größere Veranstaltungen müssen zwei Wochen vorher angemeldet werden.",
]
FRENCH = [
    "La bibliothèque municipale sera fermée pendant les fêtes de fin d’année.",
    "Le maire a présenté le projet de rénovation de l’école élémentaire.",
    "Les élèves ont visité le musée et découvert des œuvres du XIXe siècle.",
    "Un marché de Noël se tiendra sur la place de l’Église du 10 au 24 décembre.",
    "Les travaux sur la voie ferrée perturberont la circulation des trains ce week‑end.",
    "« C’est une très bonne nouvelle pour le quartier », a déclaré la présidente.",
    "Le festival accueillera cette année près de quarante groupes venus d’Europe.",
    "La piscine rouvrira ses portes après deux mois de réparations.",
    "Les habitants sont invités à une réunion publique jeudi à dix‑huit heures.",
    "Le boulanger du village a reçu un prix pour sa baguette traditionnelle.",
]
JAPANESE = [
    "市立図書館は年末年始の間、休館いたします。",
    "駅前の商店街では、毎週土曜日に朝市が開かれています。",
    "新しいバスの時刻表は来月一日から使われます。",
    "台風の影響で、午後の便はすべて欠航となりました。",
    "子どもたちは川の清掃活動に参加し、ごみを拾いました。",
    "市長は記者会見で、新しい公園の計画について説明しました。",
    "このお知らせは、町内会の掲示板にも貼り出されています。",
    "博物館では、江戸時代の暮らしを紹介する展示が始まりました。",
    "雨の日でも、図書館の前には開館を待つ人の列ができていた。",
    "地元の農家が育てたお米が、全国の品評会で金賞を受賞した。",
    "詳しくは、市役所の窓口かホームページでご確認ください。",
    "今年の花火大会には、およそ三万人の見物客が訪れた。",
]
KOREAN = [
    "시립 도서관은 연말연시 동안 휴관합니다.",
    "역 앞 시장에서는 매주 토요일 아침에 장이 열립니다.",
    "새 버스 시간표는 다음 달 1일부터 적용됩니다.",
    "태풍의 영향으로 오후 항공편이 모두 결항되었습니다.",
    "아이들은 하천 정화 활동에 참여해 쓰레기를 주웠습니다.",
    "시장은 기자회견에서 새 공원 계획을 설명했습니다.",
    "이 안내문은 주민센터 게시판에도 붙어 있습니다.",
    "박물관에서는 조선 시대의 생활을 소개하는 전시가 시작되었습니다.",
    "비가 오는 날에도 도서관 앞에는 개관을 기다리는 사람들이 줄을 섰다.",
    "지역 농가에서 기른 쌀이 전국 품평회에서 금상을 받았다.",
    "자세한 내용은 시청 창구나 홈페이지에서 확인하시기 바랍니다.",
    "올해 불꽃 축제에는 약 3만 명의 관람객이 찾았다.",
]
CHINESE = [
    "春运首日，全国铁路发送旅客三百万人次，各地车站秩序井然。",
    "社区图书馆从下月起延长开放时间，周末也可借阅图书。",
    "高山茶园迎来春茶采摘季，茶农们天不亮就上山忙碌。",
    "受降雨影响，今天下午部分航班延误，请旅客留意机场通知。",
    "志愿者们在河边清理垃圾，一个上午就收集了两百多公斤。",
    "市长在记者会上介绍了新公园的建设计划和开放时间。",
    "这则通知也张贴在社区公告栏上，欢迎居民前来咨询。",
    "博物馆推出介绍明清时期百姓生活的专题展览，吸引了不少游客。",
    "即使下雨，图书馆门前依然排起了等候开馆的长队。",
    "当地农户种植的大米在全国评比中获得金奖。",
    "详情请咨询市政府服务窗口，或登录官方网站查询。",
    "今年的烟花晚会吸引了约三万名观众前来观看。",
]
TRADITIONAL = [
    "春運首日，全國鐵路發送旅客三百萬人次，各地車站秩序井然。",
    "社區圖書館從下月起延長開放時間，週末也可借閱圖書。",
    "高山茶園迎來春茶採摘季，茶農們天不亮就上山忙碌。",
    "受降雨影響，今天下午部分航班延誤，請旅客留意機場通知。",
    "志願者們在河邊清理垃圾，一個上午就收集了兩百多公斤。",
    "市長在記者會上介紹了新公園的建設計劃和開放時間。",
    "這則通知也張貼在社區公告欄上，歡迎居民前來諮詢。",
    "博物館推出介紹明清時期百姓生活的專題展覽，吸引了不少遊客。",
    "即使下雨，圖書館門前依然排起了等候開館的長隊。",
    "當地農戶種植的大米在全國評比中獲得金獎。",
]
RARE = "𠀀𠀁 GB18030 四字节字符，"  # characters only GB18030 codes (beyond GBK)

# encoding (as Python names it), the label simdup gives it, the sentences to write in it
ENCODINGS: dict[str, tuple[str, list[str]]] = {
    "cp1252": ("windows-1252", ENGLISH + FRENCH),
    "latin-1": ("latin-1", GERMAN + [s.replace("’", "'").replace("œ", "oe") for s in FRENCH]),
    "shift_jis": ("shift-jis", JAPANESE),
    "euc_jp": ("euc-jp", JAPANESE),
    "euc_kr": ("euc-kr", KOREAN),
    "gbk": ("gbk", CHINESE),
    "gb18030": ("gb18030", CHINESE),
    "big5": ("big5", TRADITIONAL),
    "utf-8": ("utf-8", CHINESE + ENGLISH + JAPANESE + KOREAN),
    "utf-16": ("utf-16", CHINESE + ENGLISH),
    "utf-16-le": ("utf-16-le", CHINESE + ENGLISH),
    "utf-16-be": ("utf-16-be", CHINESE + ENGLISH),
}


def article(rng: random.Random, sentences: list[str], encoding: str) -> str:
    """One file's text: a sentence, a paragraph or several, from ``sentences``."""
    size = rng.choice([1, 1, 2, 3, 5, 8, 15, 30])
    picked = [rng.choice(sentences) for _ in range(size)]
    per = rng.randint(2, 5)
    paragraphs = [" ".join(picked[n : n + per]) for n in range(0, len(picked), per)]
    if encoding == "latin-1":  # Latin-1 has no curly quotes or dashes
        paragraphs = [p.replace("–", "-").replace("—", "-").replace("‑", "-") for p in paragraphs]
    if encoding in ("cp1252", "latin-1"):
        paragraphs = [p.replace("‑", "-") for p in paragraphs]  # a non-breaking hyphen: none
    text = "\n\n".join(paragraphs) + "\n"
    if encoding == "gb18030":
        text = RARE + text
    return text


def corpus(per_encoding: int = 300, seed: int = 7) -> Iterator[tuple[str, str, str, bytes]]:
    """``per_encoding`` files of each encoding: (encoding, its label, the text, the bytes).

    A third of them with CRLF line ends; a quarter of the UTF-16 files without a BOM end in a
    stray byte (a file cut or joined badly), which the text does not hold.
    """
    rng = random.Random(seed)
    for encoding, (label, sentences) in ENCODINGS.items():
        for _ in range(per_encoding):
            text = article(rng, sentences, encoding)
            if rng.random() < 1 / 3:
                text = text.replace("\n", "\r\n")
            data = text.encode(encoding)
            if encoding in ("utf-16-le", "utf-16-be") and rng.random() < 1 / 4:
                data += rng.choice([b"\x00", b"\n", b"x"])
            yield encoding, label, text.replace("\r\n", "\n"), data
