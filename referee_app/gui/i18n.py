"""Interface language (中文 / English): a small dict-based table, switchable at run time.

Why a dict and not Qt's .ts/.qm machinery: the app has a few hundred strings, they are
reviewed in code next to their English, and switching must not need a compile step.
Views call :func:`tr` whenever they (re)build their texts and listen to
:data:`LANG.changed` to retranslate.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from .texts_record import TEXTS

#: key -> (English, 中文). Keys are the English text unless it is long or ambiguous.
_TABLE: dict[str, tuple[str, str]] = {
    "app_title": ("Referee Desk", "裁判台"),
    "File": ("&File", "文件(&F)"),
    "View": ("&View", "视图(&V)"),
    "Hand": ("&Hand", "牌局(&H)"),
    "Open database…": ("Open database…", "打开数据库…"),
    "Quit": ("Quit", "退出"),
    "Language": ("Language", "语言"),
    "Projector window": ("Projector window", "投影窗口"),
    "Penalties…": ("Penalties…", "罚分…"),
    "History…": ("History…", "历史版本…"),
    "Mark verified": ("Mark verified", "标记为已核对"),
    "Void hand…": ("Void hand…", "作废本局…"),
    "void_prompt": ("Reason for voiding this hand (required; it stays listed as void):",
                    "作废原因（必填；本局仍会显示为作废）："),
    "Save hand": ("Save hand", "保存牌局"),
    "Next hand": ("Next hand", "下一局"),
    "Undo": ("Undo", "撤销"),
    "Redo": ("Redo", "重做"),
    "Entry": ("Hand entry", "录入"),
    "Trace": ("Rule trace", "规则追溯"),
    "Standings": ("Standings", "排名"),
    "Seating": ("Seating", "座位"),
    "Players": ("Player detail", "选手详情"),
    "Tournament": ("Tournament", "赛事"),
    "Round": ("Round", "轮"),
    "Table": ("Table", "桌"),
    "hand_no": ("Hand", "局"),
    "round_n": ("Round {n}", "第{n}轮"),
    "table_n": ("Table {n}", "第{n}桌"),
    "hand_n": ("Hand {n}", "第{n}局"),
    "new_hand_n": ("New hand {n}", "新局 {n}"),
    "Dealer": ("Dea&ler", "庄家(&L)"),
    "dealer_mark": ("dealer", "庄"),
    "Concealed": ("Concealed", "手牌"),
    "Pongs": ("Pongs", "碰"),
    "concealed_hint": ("e.g. 1112345678999m or 23445677筒345789条",
                       "如 1112345678999m 或 23445677筒345789条"),
    "pongs_hint": ("e.g. 5p 9s (one tile per pong)", "如 5p 9s（每副碰写一张）"),
    "Events": ("Events (in order)", "事件（按顺序）"),
    "Add kong": ("Add &kong", "加杠(&K)"),
    "Add win": ("Add &win", "加和(&W)"),
    "Edit": ("&Edit", "编辑(&E)"),
    "Move up": ("Move &up", "上移(&U)"),
    "Move down": ("Move dow&n", "下移(&N)"),
    "Delete": ("&Delete", "删除(&D)"),
    "Wall exhausted": ("Wall e&xhausted", "流局/牌墙摸完(&X)"),
    "Validation": ("Validation", "校验"),
    "no_problems": ("No problems: the hand obeys the rules.", "无问题：本局符合规则。"),
    "Settlement": ("Settlement preview", "结算预览"),
    "Wins": ("Wins", "和牌"),
    "Payments": ("Payments", "支付"),
    "Totals": ("Totals", "合计"),
    "Seat": ("Seat", "座位"),
    "Player": ("Player", "选手"),
    "Pattern": ("Pattern", "番种"),
    "Fan": ("Fan", "番"),
    "fan_unit": ("fan", "番"),
    "chips_unit": ("chips", "筹码"),
    "chip_unit": ("chip", "筹码"),
    "Chips": ("Chips", "筹码"),
    "From": ("From", "付方"),
    "To": ("To", "收方"),
    "Clause": ("Clause", "条款"),
    "Reason": ("Reason", "原因"),
    "Tile": ("Tile", "牌"),
    "Kind": ("Kind", "类型"),
    "Discarder": ("Discarder", "放炮/点杠者"),
    "self_drawn": ("— self-drawn —", "— 自摸 —"),
    "Winners": ("Winners", "和牌者"),
    "Flags": ("Flags", "标记"),
    "Passed fan": ("Passed fan", "过水番数"),
    "none": ("none", "无"),
    "Kong": ("Kong", "杠"),
    "Win": ("Win", "和"),
    "kind_direct": ("direct (直杠)", "直杠"),
    "kind_added": ("added (补杠)", "补杠/面下杠"),
    "kind_concealed": ("concealed (暗杠)", "暗杠"),
    "flag_kong_bloom": ("kong bloom 杠上花", "杠上花"),
    "flag_kong_discard": ("kong discard 杠上炮", "杠上炮"),
    "flag_robbing_kong": ("robbing the kong 抢杠", "抢杠"),
    "flag_heavenly": ("heavenly 天和", "天和"),
    "flag_earthly": ("earthly 地和", "地和"),
    "flag_declared_ready": ("declared ready 报调", "报调"),
    "flag_first_discard": ("first discard 第一和", "第一和"),
    "ev_kong": ("{seat} kong {tile} · {kind}", "{seat} {kind} {tile}"),
    "ev_kong_from": ("{seat} kong {tile} · {kind} from {frm}", "{seat} {kind} {tile}（{frm} 点杠）"),
    "ev_win_self": ("{seats} self-drawn win {tile}", "{seats} 自摸 {tile}"),
    "ev_win_from": ("{seats} win on {frm}'s {tile}", "{seats} 和 {frm} 打出的 {tile}"),
    "record_error": ("Cannot read the record", "记录无法读取"),
    "status_entered": ("entered", "已录入"),
    "status_verified": ("verified", "已核对"),
    "status_amended": ("amended", "已修改"),
    "status_void": ("void", "作废"),
    "status_override": ("override", "强制录入"),
    "status_new": ("new", "新"),
    "saved": ("Saved hand {n} (version {v}).", "已保存第{n}局（第{v}版）。"),
    "unsaved": ("unsaved changes", "未保存的修改"),
    "discard_prompt": ("The hand in the entry form has unsaved changes. Discard them?",
                       "录入表中的牌局有未保存的修改。放弃这些修改吗？"),
    "amend_title": ("Amend a saved hand", "修改已保存的牌局"),
    "amend_prompt": ("This hand is saved. Reason for the change (required):",
                     "本局已保存。修改原因（必填）："),
    "override_title": ("Record a hand that breaks the rules", "强制录入违规牌局"),
    "override_prompt": ("The hand breaks the rules (see Validation). To record it anyway as "
                        "head referee, give the reason (required):",
                        "本局违反规则（见校验）。如需以总裁判身份强制录入，请填写原因（必填）："),
    "reason_required": ("A reason is required; nothing was saved.", "必须填写原因；未保存。"),
    "cannot_save": ("Cannot save: {msg}", "无法保存：{msg}"),
    "no_hand": ("Select a table or hand in the navigator first.", "请先在导航中选择一桌或一局。"),
    "History": ("History", "历史版本"),
    "Version": ("Version", "版本"),
    "When": ("When", "时间"),
    "Referee": ("Referee", "裁判"),
    "Change": ("Change in totals", "合计变化"),
    "Status": ("Status", "状态"),
    "Rank": ("Rank", "名次"),
    "Hands": ("Hands", "局数"),
    "Self-drawn": ("Self-drawn", "自摸"),
    "Discards paid": ("Discards paid", "放炮"),
    "Flower pigs": ("Flower pigs", "花猪"),
    "Largest win": ("Largest win", "最大番"),
    "Penalties": ("Penalties", "罚分"),
    "Add penalty": ("Add penalty", "添加罚分"),
    "Zero-sum": ("Paid to the other three (zero-sum)", "付给其他三家（零和）"),
    "Close": ("Close", "关闭"),
    "Statement": ("Statement", "对账单"),
    "clause_texts": ("Clause", "条款原文"),
    "Original": ("Original (中文)", "原文"),
    "English": ("English", "英文"),
    "Reading": ("Reading", "解读"),
    "select_payment": ("Select a payment or trace line to see its clause.",
                       "选择一条支付或追溯行以查看条款。"),
    "Trace lines": ("Trace", "追溯"),
    "all_rounds": ("All rounds", "全部轮次"),
    "updated": ("updated {t}", "更新于 {t}"),
    "demo_banner": ("demo tournament", "演示赛事"),
    "ready": ("Ready.", "就绪。"),
    "OK": ("OK", "确定"),
    "Cancel": ("Cancel", "取消"),
    "seats_word": ("seats", "座位"),
    "repeat_pairs": ("Repeat opponent pairs: {n}", "重复对手组数：{n}"),
    "byes": ("Bye: {names}", "轮空：{names}"),
    # reports: preview, print, save (views/report_menu.py, views/report_preview.py)
    "Reports": ("&Reports", "报表(&R)"),
    "Print preview…": ("Print preview…", "打印预览…"),
    "report_templates": ("Template folder…", "报表模板文件夹…"),
    "report_templates_now": ("Template folder: {folder}", "报表模板文件夹：{folder}"),
    "report_templates_shipped": ("the shipped templates", "内置模板"),
    "Print preview": ("Print preview", "打印预览"),
    "report_standings_all": ("Standings (all rounds)", "成绩排名（全部轮次）"),
    "report_standings_round": ("Standings after the selected round",
                               "成绩排名（截至所选轮次）"),
    "report_standings_after": ("Standings after round {n}", "成绩排名（截至第{n}轮）"),
    "report_table": ("Table sheets", "桌次记分表"),
    "report_player": ("Player statement", "个人结算单"),
    "report_hand": ("Hand ruling sheet", "牌局裁定单"),
    "report_seating": ("Seating chart and table cards", "座位表与桌卡"),
    "report_slips": ("Blank hand slips", "空白记分单"),
    "all_tables": ("all tables", "全部桌次"),
    "report_needs": ("Cannot make this report: {what}", "无法生成此报表：{what}"),
    "need_hand": ("select a saved hand in the navigator first.",
                  "请先在导航中选择一局已保存的牌局。"),
    "need_player": ("select a player (Player detail tab, or a row of the standings) first.",
                    "请先选择一位选手（选手详情页，或排名中的一行）。"),
    "need_round": ("select a round in the navigator first (no round is seated yet?).",
                   "请先在导航中选择一轮（尚未排座？）。"),
    "need_report": ("unknown report.", "未知报表。"),
    "report_failed": ("Cannot make this report: {msg}", "无法生成此报表：{msg}"),
    "prev_page": ("◀ Previous", "◀ 上一页"),
    "next_page": ("Next ▶", "下一页 ▶"),
    "of_pages": ("of {n}", "共 {n} 页"),
    "Zoom": ("Zoom", "缩放"),
    "zoom_width": ("Fit width", "适合宽度"),
    "zoom_page": ("Whole page", "整页"),
    "Print…": ("&Print…", "打印(&P)…"),
    "Save as PDF…": ("&Save as PDF…", "另存为 PDF(&S)…"),
    "no_pages": ("The report has no pages.", "报表没有页面。"),
    "cannot_write": ("Cannot write {path}: {msg}", "无法写入 {path}：{msg}"),
    "saved_pdf": ("Saved {path} ({n:,} bytes).", "已保存 {path}（{n:,} 字节）。"),
    "cannot_print": ("Cannot print: {msg}", "无法打印：{msg}"),
    # running a tournament from the window (views/manage.py, controllers/desk.py)
    "New tournament…": ("&New tournament…", "新建赛事(&N)…"),
    "Import bundle…": ("&Import bundle…", "导入赛事包(&I)…"),
    "Export bundle…": ("&Export bundle…", "导出赛事包(&E)…"),
    "New tournament": ("New tournament", "新建赛事"),
    "Tournament file": ("Tournament file", "赛事文件"),
    "Browse…": ("Browse…", "浏览…"),
    "Name": ("Name", "名称"),
    "Ruleset": ("Ruleset", "规则"),
    "Venue": ("Venue", "地点"),
    "Start date": ("Start date", "开始日期"),
    "End date": ("End date", "结束日期"),
    "Stake": ("Stake (money per chip)", "每筹码金额"),
    "Cap": ("Cap on total fan", "封顶番数"),
    "head_sign_title": ("Head referee's ruling", "裁判长裁决"),
    "head_sign_prompt": ("Only the head referee ({head}) may record a hand that breaks the "
                         "rules. Head referee's name:",
                         "违反规则的牌局只能由裁判长（{head}）裁决记录。裁判长姓名："),
    "cap_none": ("the ruleset's", "按规则"),
    "date_hint": ("YYYY-MM-DD", "年-月-日 YYYY-MM-DD"),
    "bundle_file": ("Tournament bundle (*.json)", "赛事包 (*.json)"),
    "db_file": ("Tournament file (*.sqlite)", "赛事文件 (*.sqlite)"),
    "csv_file": ("Players CSV (*.csv)", "选手名单 CSV (*.csv)"),
    "Save imported tournament as": ("Save the imported tournament as", "导入的赛事保存为"),
    "not_done": ("Not done (nothing was changed): {msg}", "未执行（未做任何更改）：{msg}"),
    "created": ("Created {name} in {path}.", "已创建 {name}：{path}。"),
    "imported": ("Imported {name} into {path}.", "已导入 {name}：{path}。"),
    "exported": ("Wrote {path}: {players} players, {hands} hands.",
                 "已写出 {path}：{players} 名选手，{hands} 局。"),
    "Add player…": ("Add player…", "添加选手…"),
    "Add player": ("Add player", "添加选手"),
    "Import players CSV…": ("Import players CSV…", "导入选手 CSV…"),
    "Latin name": ("Latin name", "拼音/拉丁名"),
    "Club": ("Club", "俱乐部"),
    "player_status": ("Status:", "状态："),
    "pstatus_active": ("active", "在赛"),
    "pstatus_withdrawn": ("withdrawn", "退赛"),
    "pstatus_late": ("late entry", "迟到报名"),
    "pstatus_substitute": ("substitute", "替补"),
    "player_added": ("Registered {name}.", "已登记 {name}。"),
    "players_imported": ("Registered {n} players from {path}.", "已从 {path} 登记 {n} 名选手。"),
    "status_set": ("{name}: {status}.", "{name}：{status}。"),
    "Seat round n…": ("Seat round {n}…", "排第{n}轮座位…"),
    "Seat round": ("Seat round {n}", "排第{n}轮座位"),
    "Seed": ("Seed", "随机种子"),
    "seed_hint": ("empty: random (stored with the round)", "留空：随机（随本轮保存）"),
    "Fill": ("Not a full table", "不满一桌时"),
    "fill_byes": ("byes: players with the fewest byes sit out", "轮空：轮空最少的选手休息"),
    "fill_substitutes": ("substitutes fill the empty seats", "替补：由替补选手补足空位"),
    "fill_note": ("{n} players to seat at tables of {size}: {extra} left over.",
                  "共 {n} 名选手，每桌 {size} 人：多出 {extra} 人。"),
    "fill_none": ("{n} players to seat at tables of {size}: every table is full.",
                  "共 {n} 名选手，每桌 {size} 人：正好坐满。"),
    "round_seated": ("Seated round {n}.", "已排好第{n}轮座位。"),
    "Swap/move player…": ("Swap/move player…", "调换/移动选手…"),
    "Swap/move player": ("Swap/move player", "调换/移动选手"),
    "swap_where": ("{round} · {table} · {seat}: now {player}", "{round} · {table} · {seat}：现为 {player}"),
    "swap_help": ("The chosen player takes this seat; if they sit elsewhere in this round the "
                  "two swap seats, if they have a bye the current occupant takes the bye.",
                  "所选选手坐到此座位；若其本轮坐在别处则两人互换，若其轮空则原座位选手轮空。"),
    "Put here": ("Put here", "坐到此处"),
    "sits_at": ("{table} {seat}", "{table} {seat}"),
    "on_bye": ("bye", "轮空"),
    "not_seated": ("not seated", "未入座"),
    "seat_set": ("{player} now sits at {table} {seat}.", "{player} 现坐 {table} {seat}。"),
    "select_seat": ("Select a seat cell of the grid first.", "请先在座位表中选择一个座位。"),
    "seating_ok": ("Seating problems: none.", "座位问题：无。"),
    "seating_problems": ("Seating problems: {list}", "座位问题：{list}"),
    "no_rounds": ("No round is seated yet.", "尚未排座。"),
    # keyboard flow (views/jump_bar.py, controllers/navigation.py, views/prompts.py)
    "Go to hand…": ("&Go to hand…", "转到牌局(&G)…"),
    "Find player…": ("&Find player…", "查找选手(&F)…"),
    "goto_hint": ("round table hand, e.g. 4 1 9 — Enter goes, Esc closes",
                  "轮 桌 局，如 4 1 9 — 回车转到，Esc 关闭"),
    "find_hint": ("player name (中文 or Latin) — Enter shows their hands and seat",
                  "选手姓名（中文或拼音）— 回车显示其牌局与座位"),
    "goto_format": ("Go to: type round, table and hand as numbers, e.g. 4 1 9.",
                    "转到：请输入轮、桌、局的数字，如 4 1 9。"),
    "goto_no_round": ("Go to: there is no round {n}.", "转到：没有第{n}轮。"),
    "goto_no_table": ("Go to: round {round} has no table {table}.",
                      "转到：第{round}轮没有第{table}桌。"),
    "goto_no_hand": ("Go to: round {round}, table {table} has no hand {hand}.",
                     "转到：第{round}轮第{table}桌没有第{hand}局。"),
    "find_none": ("Find: no player matches {text!r}.", "查找：没有与“{text}”相符的选手。"),
    "find_seat": ("{round} sits at {table} {seat}", "{round}坐 {table} {seat}"),
    "find_no_seat": ("not seated in {round}", "{round}未入座"),
    "Type events": ("Ty&pe:", "输入(&P)："),
    "events_line_hint": ("k S 9s; w N 7p W; w E 1m; x  (Enter adds)",
                         "k S 9s; w N 7p W; w E 1m; x（回车添加）"),
    "line_unreadable": ("Events line, part {part} ({text}): not an event — k seat tile "
                        "[c/a/d] [from], w seats tile [from] [+flag], or x.",
                        "事件行第 {part} 段（{text}）：无法识别 — 杠 k 座位 牌 [c/a/d] [点杠者]，"
                        "和 w 座位 牌 [放炮者] [+标记]，或 x。"),
    "line_kong_seat": ("Events line, part {part} ({text}): a kong names exactly one seat.",
                       "事件行第 {part} 段（{text}）：杠只能写一个座位。"),
    "line_kong_flags": ("Events line, part {part} ({text}): flags belong to a win.",
                        "事件行第 {part} 段（{text}）：标记只用于和牌。"),
    "line_win_seats": ("Events line, part {part} ({text}): name the winning seat(s).",
                       "事件行第 {part} 段（{text}）：请写出和牌者座位。"),
    "line_flag": ("Events line, part {part} ({text}): unknown flag letter (r b g t f h e).",
                  "事件行第 {part} 段（{text}）：未知标记字母（r b g t f h e）。"),
    "empty_form": ("Type each seat's tiles; problems and the settlement show as you type.",
                   "请输入各家的牌；问题与结算会随输入显示。"),
    "action_entered": ("entered", "录入"),
    "action_amended": ("amended", "修改"),
    "action_status": ("status", "状态变更"),
    "action_voided": ("voided", "作废"),
    "action_restored": ("restored", "恢复"),
    "amending": ("amending v{a} → v{b}", "正在修改 v{a} → v{b}"),
    "void_counts_nothing": ("void: this hand counts nothing", "作废：本局不计分"),
    "stale_tip": ("From this seat's last readable tiles: fix the typo to update it.",
                  "按该座位上一次可读的牌计算：改正输入后更新。"),
    "Progress": ("Round progress", "本轮进度"),
    "prog_entered": ("To verify", "待核对"),
    "prog_verified": ("Verified", "已核对"),
    "prog_override": ("Override", "强制录入"),
    "prog_void": ("Void", "作废"),
    "prog_last_hand": ("Last hand", "最后一局"),
    "prog_last_entry": ("Last entry", "最后录入"),
    "prog_gaps": ("Missing hands", "缺少的局"),
    "prog_summary": ("{hands} hands, {verified} verified, {left} still to verify",
                     "共 {hands} 局，已核对 {verified} 局，待核对 {left} 局"),
    "Players_col": ("Players", "选手"),
    "impact_breaks": ("the changed hand breaks the rules (see Validation)",
                      "修改后的牌局违反规则（见校验）"),
    "impact_no_change": ("no total changes", "合计不变"),
    "impact_no_rank": ("no player's rank changes", "名次不变"),
    "impact_totals": ("totals: ", "合计："),
    "impact_ranks": ("ranks: ", "名次："),
    "Verify blind…": ("Verify &blind…", "盲录核对(&B)…"),
    "blind_status": ("blind entry: key the slip again (the saved version is hidden)",
                     "盲录核对：请再次录入记分单（已保存的版本已隐藏）"),
    "verify_void": ("A void hand has nothing to verify.", "作废的牌局无需核对。"),
    "verified_blind": ("{title}: the second entry matches — verified.",
                       "{title}：第二次录入一致 — 已核对。"),
    "verified_resolved": ("{title}: resolved by the head referee — verified.",
                          "{title}：已由裁判长裁定 — 已核对。"),
    "verify_differ_title": ("The two entries differ", "两次录入不一致"),
    "verify_differ": ("{title}: the second entry differs from the first in {n} field(s). "
                      "The head referee decides which is right.",
                      "{title}：第二次录入与第一次有 {n} 处不同，由裁判长裁定。"),
    "verify_take_second": ("The second entry replaces the saved hand (a new version). "
                           "Reason (required):",
                           "以第二次录入替换已保存的牌局（新版本）。原因（必填）："),
    "verify_head_prompt": ("The two entries differ: the head referee ({head}) decides. Head "
                           "referee's name:",
                           "两次录入不一致，由裁判长（{head}）裁定。裁判长姓名："),
    "Field": ("Field", "项目"),
    "First entry": ("First entry", "第一次录入"),
    "Second entry": ("Second entry", "第二次录入"),
    "Keep first entry": ("Keep the &first entry", "保留第一次录入(&F)"),
    "Take second entry…": ("Take the &second entry…", "采用第二次录入(&S)…"),
    "proj_after": ("after round {n}", "截至第{n}轮"),
    "proj_page": ("page {p}/{n}", "第 {p}/{n} 页"),
    "proj_move": ("▲▼", "升降"),
    "proj_new": ("new", "新"),
    "What if": ("What if… (for disputes; nothing is saved)", "假如…（用于争议；不保存）"),
    "whatif_col": ("What if", "假如"),
    "As ruled": ("As ruled", "按现规"),
    "whatif_change": ("Change", "变化"),
    "Record as override…": ("Record as override…", "作为裁决记录…"),
    "whatif_none": ("No ruleset switch or Reading would settle this hand differently.",
                    "没有任何规则开关或解读会改变本局的结算。"),
    "whatif_hint": ("Tick a switch to see the hand settled the other way; only the head "
                    "referee may record it, as an override with a reason.",
                    "勾选一项查看按另一种规定的结算；只有裁判长可将其作为强制裁决记录（须写原因）。"),
    "whatif_reason": ("Record the '{name}' ruling as an override for this hand. Reason "
                      "(required):", "将“{name}”的结算作为本局的强制裁决记录。原因（必填）："),
    "whatif_saved": ("Recorded the ruling as an override (version {v}).",
                     "已作为强制裁决记录（第{v}版）。"),
    "yes": ("yes", "是"),
    "no": ("no", "否"),
    "switch_redirect_robbed_tax": ("robbed kong's tax goes to the robber",
                                   "被抢杠的杠钱转给抢杠者"),
    "switch_bloom_after_direct_kong_paid_by_discarder": (
        "kong bloom after a direct kong: the kong's discarder pays alone",
        "直杠后杠上花：由点杠者一家支付"),
    "switch_passed_win_higher_fan_allows": ("after a passed win, more fan allows a discard win",
                                            "过水后番数更高可和"),
    "switch_root_counts_kongs": ("declared kongs count as roots (根)", "杠算根"),
    "switch_root_concealed_only": ("only concealed fours count as roots", "只有暗四张算根"),
    "switch_cap_fan": ("cap on a win's fan", "封顶番数"),
    "after_round_n": ("After round {n} (rounds 1–{n})", "截至第{n}轮（第1–{n}轮）"),
    "round_only_n": ("Round {n} only", "仅第{n}轮"),
    "report_standings_only": ("Standings of round {n} only", "成绩排名（仅第{n}轮）"),
    "provisional_n": ("PROVISIONAL: only verified hands count; {n} hand(s) not yet verified "
                      "are left out", "临时成绩：只计已核对的牌局，{n} 局待核对未计入"),
    "proj_provisional": ("provisional ({n} to verify)", "临时成绩（{n} 局待核对）"),
    "proj_settings": ("Projector settings", "投影设置"),
    "dlg_keys_kong": ("Keys: E S W N or 1–4 seat · c a d kind · Tab to the discarder, then "
                      "E S W N or 1–4 · Enter OK",
                      "按键：E S W N 或 1–4 选座位 · c a d 选类型 · Tab 到点杠者再按 E S W N 或 "
                      "1–4 · 回车确定"),
    "dlg_keys_win": ("Keys: E S W N or 1–4 tick a winner · Tab to the discarder: E S W N or "
                     "1–4, 0 self-drawn · Alt+underlined letter a flag · Enter OK",
                     "按键：E S W N 或 1–4 勾选和牌者 · Tab 到放炮者：E S W N 或 1–4，0 为自摸 · "
                     "Alt+下划线字母选标记 · 回车确定"),
    "proj_settings_act": ("Projector settings…", "投影设置…"),
    "proj_page_seconds": ("Seconds per page", "每页停留秒数"),
    "proj_show_progress": ("Show the round's progress as a page (key P)",
                           "轮播本轮录入进度页（P 键）"),
    "proj_progress": ("round {n} progress: {v} of {h} hands verified",
                      "第{n}轮进度：{h} 局中已核对 {v} 局"),
    "Discard changes": ("&Discard changes", "放弃修改(&D)"),
}

_TABLE.update(TEXTS)

SEAT_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}


class _Language(QObject):
    """The current interface language; emits ``changed`` after a switch."""

    changed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.code = "zh"

    def set(self, code: str) -> None:
        if code not in ("en", "zh"):
            raise ValueError(f"language: unknown code {code!r} (en or zh)")
        if code != self.code:
            self.code = code
            self.changed.emit(code)


LANG = _Language()


def tr(key: str, **fmt: object) -> str:
    """The text for ``key`` in the current language (the key itself when unknown)."""
    pair = _TABLE.get(key)
    text = key if pair is None else pair[1 if LANG.code == "zh" else 0]
    return text.format(**fmt) if fmt else text


def trace_text(line: str) -> str:
    """A trace line in the current language (the engine writes English; 中文 is rendered)."""
    from referee_app.core.trace_zh import trace_line_zh

    return trace_line_zh(line) if LANG.code == "zh" else line


def reason_text(reason: str) -> str:
    """A payment's reason in the current language."""
    from referee_app.core.trace_zh import reason_zh

    return reason_zh(reason) if LANG.code == "zh" else reason


def seat_name(seat: str) -> str:
    """``东 E`` in Chinese mode, ``E 东`` in English: both scripts, so either reader finds it."""
    zh = SEAT_ZH.get(seat, "")
    if not zh:
        return seat
    return f"{zh} {seat}" if LANG.code == "zh" else f"{seat} {zh}"


_BONUS_EN = {"刮风": "Wind (exposed kong)", "下雨": "Rain (concealed kong)"}


def bonus_name(ruleset: Any, zh: str) -> str:
    """A bonus item's name in both languages, English from the ruleset's data (a Ruleset,
    the tournament's own; or a shipped id)."""
    from referee_app.core import Ruleset, get_ruleset

    rules = ruleset if isinstance(ruleset, Ruleset) else get_ruleset(ruleset)
    en = _BONUS_EN.get(zh, "")
    for b in (rules.root, rules.kong_bonus, *rules.situational_bonuses.values()):
        if b is not None and b.name == zh and b.name_en:
            en = b.name_en
    return both(zh, en)


def both(zh: str, en: str) -> str:
    """A name shown in both languages (pattern names), the current language first."""
    if not en or en == zh:
        return zh
    return f"{zh} {en}" if LANG.code == "zh" else f"{en} {zh}"


def _merge_feature_texts() -> None:
    """Feature tables kept in their own modules (issue 11: ``texts_faults``; issue 14:
    ``texts_server``, the desk on a head desk's server)."""
    from .texts_faults import TEXTS
    from .texts_server import TEXTS as SERVER_TEXTS

    _TABLE.update(TEXTS)
    _TABLE.update(SERVER_TEXTS)


_merge_feature_texts()
