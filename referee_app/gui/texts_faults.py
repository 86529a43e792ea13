"""Texts of issue 11 in the GUI (faults, read-only, busy, other writers, unknown fields).

Kept apart from the main table in ``i18n.py`` (which merges them) so this feature's words
are reviewed together: key -> (English, 中文).
"""

from __future__ import annotations

TEXTS: dict[str, tuple[str, str]] = {
    # store faults: one line each, what happened and what to do
    "fault_busy": ("The tournament file is busy: another desk kept it locked too long. "
                   "Nothing was saved; try again (close the other program if this repeats).",
                   "赛事文件正忙：另一台裁判台占用时间过长。未保存任何内容；请重试"
                   "（如反复出现，请关闭另一个程序）。"),
    "fault_disk_full": ("The disk holding the tournament file is full. Nothing was saved; "
                        "free some space and try again.",
                        "赛事文件所在的磁盘已满。未保存任何内容；请腾出空间后重试。"),
    "fault_read_only": ("The tournament file is open for viewing only ({why}). Nothing was "
                        "changed; make the file and its folder writable, then open it again.",
                        "赛事文件仅供查看（{why}）。未做任何修改；请将文件及其文件夹设为可写，"
                        "然后重新打开。"),
    "fault_damaged": ("The tournament file is damaged. Stop entering hands and restore the "
                      "newest good backup (referee-app backup list --db FILE).",
                      "赛事文件已损坏。请停止录入，并恢复最新的完好备份"
                      "（referee-app backup list --db 文件）。"),
    "fault_other": ("The tournament file cannot be used: {detail}",
                    "无法使用赛事文件：{detail}"),
    "fault_changed": ("Hand #{hand} was changed at another desk (now version {theirs}; you "
                      "edited version {mine}). Nothing was saved: look at both versions first.",
                      "第 #{hand} 号牌局已在另一台裁判台被修改（现为第{theirs}版；您编辑的是"
                      "第{mine}版）。未保存任何内容：请先查看两个版本。"),
    "ro_file": ("the file {path} is read-only", "文件 {path} 为只读"),
    "ro_folder": ("its folder {path} is read-only", "所在文件夹 {path} 为只读"),
    "ro_shm": ("{path} is read-only, left by another user", "{path} 为只读（可能由其他用户留下）"),
    "ro_other": ("{path} is read-only", "{path} 为只读"),
    "ro_unknown": ("it cannot be written here", "此处无法写入"),
    "unexpected_error": ("Something unexpected went wrong ({kind}). Nothing was saved by "
                         "this action unless it said \"Saved\". Carry on; if it repeats, close "
                         "and reopen the desk. The details are in {file}: give that file to "
                         "the organiser.",
                         "发生了意外错误（{kind}）。除非显示“已保存”，此操作未保存任何内容。"
                         "可以继续工作；如反复出现，请关闭并重新打开裁判台。详细信息在 {file}，"
                         "请将该文件交给组织者。"),
    "log_unwritable": ("no log file (none could be written)", "无日志文件（无法写入）"),
    # read-only
    "readonly_banner": ("Read-only: {why}. You can look at everything; changes cannot be "
                        "saved.", "只读：{why}。可以查看所有内容，但无法保存修改。"),
    "readonly_refused": ("This tournament is open for viewing only ({why}); nothing was "
                         "changed.", "本赛事仅供查看（{why}）；未做任何修改。"),
    # busy
    "busy_retry_title": ("Tournament file busy", "赛事文件正忙"),
    "busy_retry_prompt": ("{msg}\n\nYour entry is still in the form. Try saving again now?",
                          "{msg}\n\n您录入的内容仍在表单中。现在重试保存吗？"),
    "Retry": ("&Retry", "重试(&R)"),
    # other writers
    "follow_refreshed": ("Updated: another desk saved changes.",
                         "已更新：另一台裁判台保存了修改。"),
    "follow_failed": ("Cannot read the tournament file now: {msg}",
                      "现在无法读取赛事文件：{msg}"),
    "changed_banner_clean": ("Hand #{hand} was changed at another desk: the form now shows "
                             "version {theirs}.",
                             "第 #{hand} 号牌局已在另一台裁判台被修改：表单现显示第{theirs}版。"),
    "changed_banner_dirty": ("Hand #{hand} was changed at another desk while you were "
                             "editing (now version {theirs}, you edited version {mine}). "
                             "Saving is refused until you look at both.",
                             "您编辑期间，第 #{hand} 号牌局已在另一台裁判台被修改（现为第"
                             "{theirs}版，您编辑的是第{mine}版）。查看两个版本之前无法保存。"),
    "replaced_banner": ("{file} was replaced by another program (a backup restored?): the desk "
                        "opened it again and shows what it holds now. Nothing was saved into "
                        "the copy set aside.",
                        "{file} 已被其他程序替换（恢复了备份？）：裁判台已重新打开该文件，"
                        "现显示其当前内容。没有任何内容保存到被移开的副本中。"),
    "gone_banner": ("Hand #{hand} is not in the tournament file any more (a backup was "
                    "restored). The form keeps what you typed; enter it as a new hand to save "
                    "it again.",
                    "第 #{hand} 号牌局已不在赛事文件中（恢复了备份）。表单保留您录入的内容；"
                    "请作为新牌局录入以再次保存。"),
    "taken_banner": ("Hand {n} of this table was saved at another desk meanwhile; this form "
                     "cannot be saved as hand {n}.",
                     "本桌第{n}局已在另一台裁判台保存；此表单不能再保存为第{n}局。"),
    "Compare versions…": ("&Compare versions…", "比较版本(&C)…"),
    "Open their hand": ("&Open their hand", "打开对方的牌局(&O)"),
    "conflict_title": ("Changed at another desk", "已在另一台裁判台修改"),
    "conflict_head": ("{title}: version {theirs} was saved at another desk after the version "
                      "{mine} you edited. {n} field(s) differ.",
                      "{title}：在您编辑的第{mine}版之后，另一台裁判台保存了第{theirs}版。"
                      "共 {n} 处不同。"),
    "conflict_same": ("{title}: version {theirs} was saved at another desk after the version "
                      "{mine} you edited; its tiles and events are the same as your edit.",
                      "{title}：在您编辑的第{mine}版之后，另一台裁判台保存了第{theirs}版；"
                      "其牌和事件与您的编辑相同。"),
    "Their version": ("Saved at the other desk (v{v})", "另一台裁判台保存的（第{v}版）"),
    "Your edit": ("Your edit (of v{v})", "您的编辑（基于第{v}版）"),
    "Take their version": ("&Take their version (drop my edit)", "采用对方版本（放弃我的编辑）(&T)"),
    "Keep my edit": ("&Keep my edit on top of theirs", "在对方版本上保留我的编辑(&K)"),
    "Keep looking": ("Keep looking", "继续查看"),
    "conflict_rebased": ("Your edit now amends version {v}; save again to record it.",
                         "您的编辑现在基于第{v}版；再次保存即可记录。"),
    # unknown / near-miss keys in a record
    "Load hand record…": ("&Load hand record…", "载入牌局记录(&L)…"),
    "Paste hand record": ("Paste hand &record", "粘贴牌局记录(&R)"),
    "record_file_filter": ("Hand records (*.json);;All files (*)", "牌局记录 (*.json);;所有文件 (*)"),
    "record_near_miss": ("Refused: '{name}' at {where} is not a field of a hand record; did "
                         "you mean '{near}'? Nothing was loaded.",
                         "已拒绝：{where}处的 '{name}' 不是牌局记录的字段；您是想写 '{near}' "
                         "吗？未载入任何内容。"),
    "record_top": ("the top level", "顶层"),
    "record_unreadable": ("Cannot load the hand record: {msg}", "无法载入牌局记录：{msg}"),
    "record_loaded": ("Hand record loaded into the form (not saved yet).",
                      "牌局记录已载入表单（尚未保存）。"),
    "unknown_banner": ("Warning, unknown fields in this record: {fields}.",
                       "警告，此记录中有未知字段：{fields}。"),
    "unknown_kept": ("{name} (kept with the record)", "{name}（随记录保留）"),
    "unknown_ignored": ("{name} (ignored)", "{name}（忽略）"),
    "record_clipboard_empty": ("The clipboard holds no text to read as a hand record.",
                               "剪贴板中没有可作为牌局记录读取的文本。"),
    "Dismiss": ("Dismiss", "关闭提示"),
}
