"""The texts of a desk connected to a server (``referee-app gui --server``), in English and
中文; merged into :mod:`.i18n`'s table (kept apart so the server desk's words stay together)."""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    "srv_online": ("Server {url} · signed in: {referee}", "服务器 {url} · 已登录：{referee}"),
    "srv_offline": ("Server {url} cannot be reached — working offline",
                    "无法连接服务器 {url} — 离线工作"),
    "srv_waiting_1": ("1 hand waiting", "1 局等待发送"),
    "srv_waiting": ("{n} hands waiting", "{n} 局等待发送"),
    "srv_conflicts": ("{n} refused — resolve…", "{n} 局被拒收 — 处理…"),
    "srv_queued": ("Hand {n} is checked and waits in the outbox ({k} waiting); it is sent "
                   "when the server is back",
                   "第{n}局已检查，在发件箱中等待（{k} 局等待）；服务器恢复后自动发送"),
    "srv_sent": ("{n} waiting hands sent to the server", "已向服务器发送 {n} 局等待中的牌局"),
    "srv_new_conflicts": ("The server refused {n} waiting hands: resolve them (status bar)",
                          "服务器拒收了 {n} 局等待中的牌局：请处理（状态栏）"),
    "srv_conflicts_title": ("Hands the server refused", "服务器拒收的牌局"),
    "srv_conflicts_intro": (
        "These hands were saved here while the server could not be reached, and the server "
        "refused them when they were sent (another desk took the hand number, or the seating "
        "changed). Give a hand a new number to send it again, or drop it: nothing is deleted, "
        "a dropped hand stays in the outbox's dropped folder.",
        "这些牌局是在无法连接服务器时保存的，发送时被服务器拒收（其他裁判台已使用该局号，或座位已更改）。"
        "可给牌局换一个新局号重新发送，或放弃发送：不会删除任何记录，放弃的牌局保存在发件箱的 dropped 文件夹中。"),
    "srv_conflict_line": ("Round {r} · table {t} · hand {n}: {problem}",
                          "第{r}轮 · 第{t}桌 · 第{n}局：{problem}"),
    "srv_renumber": ("Send as hand number…", "改局号发送…"),
    "srv_drop": ("Drop…", "放弃发送…"),
    "srv_renumber_title": ("New hand number", "新局号"),
    "srv_renumber_prompt": ("Hand number for round {r}, table {t} (now {n}):",
                            "第{r}轮第{t}桌的新局号（现为 {n}）："),
    "srv_bad_number": ("expected a hand number (a whole number from 1), got {text!r}",
                       "局号应为从 1 起的整数，收到 {text!r}"),
    "srv_drop_prompt": ("Drop round {r}, table {t}, hand {n}? It is not sent to the server; "
                        "its file stays in the outbox's dropped folder.",
                        "放弃第{r}轮第{t}桌第{n}局？它不会发送到服务器；文件保存在发件箱的 dropped 文件夹中。"),
    "srv_resent": ("Hand {n} saved on the server", "第{n}局已保存到服务器"),
}
