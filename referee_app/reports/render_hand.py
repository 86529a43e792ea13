"""Report 4: the hand ruling sheet, printed when a hand is disputed.

It shows the hand as entered (tiles drawn), the settlement, the full rule trace, the
text of every clause cited (original Chinese, English, and the app's Reading), every
stored version with its reason, and lines for the referee's and head referee's
signatures.
"""

from __future__ import annotations

from pathlib import Path

from reportlab.lib.units import mm
from reportlab.platypus import CondPageBreak, Flowable, KeepTogether, Paragraph, Spacer, Table

from referee_app.core import KongEvent, KongKind, WinEvent
from referee_app.core.wording import Violation, reading_text, reason_text, step_text

from .base import (
    MARK_HEX,
    build_pdf,
    esc,
    frame_width,
    grid_table,
    scaled_widths,
    signed,
    styles,
)
from .detail import seat_details
from .model import HandRulingData
from .template import Template
from .tiles import TileGroup, tiles_drawing


def identification(data: HandRulingData, t: Template) -> str:
    parts = []
    if data.round is not None:
        parts.append(t.label("round", n=data.round))
    if data.table:
        parts.append(t.label("table", n=data.table))
    if data.hand_no is not None:
        parts.append(t.label("hand", n=data.hand_no))
    if data.hand_id:
        parts.append(f"#{data.hand_id}")
    return " · ".join(parts)


def _kind_label(kind: KongKind, t: Template) -> str:
    return t.label({"direct": "direct", "added": "added",
                    "concealed": "concealed_kong"}[kind.value])


def _record_section(data: HandRulingData, t: Template, st) -> list[Flowable]:
    rec = data.record
    rules = data.rules or rec.rules
    wins: dict[str, list] = {}
    for ev in rec.events:
        if isinstance(ev, WinEvent):
            for s in ev.seats:
                wins.setdefault(s, []).append(ev.tile)
    kongs: dict[str, list[KongEvent]] = {}
    for ev in rec.events:
        if isinstance(ev, KongEvent):
            kongs.setdefault(ev.seat, []).append(ev)
    fw = frame_width(t)
    rows = []
    for seat in rules.seats:
        sh = rec.seat(seat)
        groups = [TileGroup(tuple(sh.concealed), "hand", t.label("concealed"))]
        for p in sh.pongs:
            groups.append(TileGroup((p, p, p), "meld", t.label("pongs")))
        for k in kongs.get(seat, []):
            groups.append(TileGroup((k.tile,) * 4,
                                    "concealed" if k.kind is KongKind.CONCEALED else "meld",
                                    _kind_label(k.kind, t)))
        for w in wins.get(seat, []):
            groups.append(TileGroup((w,), "win", t.label("win")))
        who = f"<b>{seat}</b>" + (" ★" if seat == rec.dealer else "")
        who += f"<br/>{esc(sh.player or '')}"
        rows.append([Paragraph(who, st.cell), tiles_drawing(groups, max_width=fw * 0.8 - 6)])
    table = Table(rows, colWidths=[fw * 0.2, fw * 0.8], hAlign="LEFT",
                  style=[("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
                         ("LINEBELOW", (0, 0), (-1, -2), 0.3, "#bbbbbb"),
                         ("TOPPADDING", (0, 0), (-1, -1), 2),
                         ("BOTTOMPADDING", (0, 0), (-1, -1), 2)])
    out: list[Flowable] = [Paragraph(esc(t.label("record")), st.h2), table,
                           Paragraph(f"★ {esc(t.label('dealer'))}", st.small)]

    # the events, in order, exactly as entered
    ev_rows = []
    for i, ev in enumerate(rec.events, start=1):
        if isinstance(ev, KongEvent):
            ev_rows.append([str(i), t.label("kong"), ev.seat, f"{ev.tile} {ev.tile.chinese}",
                            _kind_label(ev.kind, t), ev.from_seat or "", ""])
        else:
            flags = ", ".join(t.label(f) for f in ev.flags)
            if ev.passed_fan is not None:
                flags += (", " if flags else "") + f"{t.label('passed_fan')} {ev.passed_fan}"
            how = t.label("self_drawn") if ev.from_seat is None else ""
            ev_rows.append([str(i), t.label("win"), " ".join(ev.seats),
                            f"{ev.tile} {ev.tile.chinese}", how, ev.from_seat or "", flags])
    head = ["#", t.label("event", "\n"), t.label("seat", "\n"), t.label("tile", "\n"),
            t.label("kind", "\n"), t.label("from", "\n"), t.label("flags", "\n")]
    w = scaled_widths([0.5, 1.2, 1.0, 1.4, 1.8, 1.4, 3.5], fw)
    out.append(Spacer(1, 2 * mm))
    if ev_rows:
        out.append(grid_table(head, ev_rows, w, ["RIGHT", "LEFT", "CENTER", "LEFT", "LEFT",
                                                 "CENTER", "LEFT"], t))
    box = "■" if rec.wall_exhausted else "□"
    out.append(Paragraph(f"{box} {esc(t.label('wall_exhausted'))}", st.body))
    return out


def _settlement_section(data: HandRulingData, t: Template, st) -> list[Flowable]:
    s = data.settlement
    fw = frame_width(t)
    out: list[Flowable] = [Paragraph(esc(t.label("settlement")), st.h2)]
    if not s.ok:
        out.append(Paragraph(f"<font color='{MARK_HEX}'>{esc(t.label('errors'))}</font>",
                             st.h3))
        rows = [[e.clause, e.seat or "", t.said(Violation(e.code, e.params, e.message), "\n")]
                for e in s.errors]
        out.append(grid_table([t.label("clause", "\n"), t.label("seat", "\n"),
                               t.label("problem", "\n")],
                              [[r[0], r[1], Paragraph(esc(r[2]), st.cell)] for r in rows],
                              scaled_widths([1.2, 0.8, 8], fw), ["LEFT", "CENTER", "LEFT"], t))
        if data.override_reason:
            out.append(Paragraph(f"{esc(t.label('override'))}: {esc(data.override_reason)}",
                                 st.body))
        return out
    details = seat_details(data.record, s, rules=data.rules)
    head = [t.label("seat", "\n"), t.label("player", "\n"), t.label("order", "\n"),
            t.label("pattern", "\n"), t.label("pattern_fan", "\n"),
            t.label("bonuses", "\n"), t.label("total_fan", "\n"),
            t.label("win_chips", "\n"), t.label("ready_chips", "\n"),
            t.label("kong_chips", "\n"), t.label("hand_total", "\n")]
    rows = []
    for d in details:
        how = "" if not d.how else (t.label("self_drawn") if d.how == "self"
                                    else t.label("on_discard", seat=d.how))
        rows.append([d.seat, d.player, "" if d.order is None else str(d.order),
                     f"{t.name(d.pattern)} {d.tile} {how}".strip() if d.pattern else "",
                     "" if d.pattern_fan is None else str(d.pattern_fan),
                     Paragraph(esc(t.name(d.bonuses)), st.cell) if d.bonuses else "",
                     "" if d.total_fan is None else str(d.total_fan),
                     signed(d.win), signed(d.ready), signed(d.kong), signed(d.total)])
    w = scaled_widths([0.7, 1.9, 0.8, 2.8, 0.9, 1.5, 1.1, 0.9, 0.9, 1.0, 1.2], fw)
    out.append(grid_table(head, rows, w, ["CENTER", "LEFT", "CENTER", "LEFT", "RIGHT", "LEFT",
                                          "RIGHT", "RIGHT", "RIGHT", "RIGHT", "RIGHT"], t))
    ec = s.end_check
    if ec is not None and ec.applies:
        zh, en = [], []
        for seat, r in ec.ready.items():
            if seat in ec.flower_pigs:
                words = t.label_pair("flower_pig")
            elif r.ready:
                words = tuple(f"{w} {' '.join(r.waits)} ({m})" for w, m in zip(
                    t.label_pair("ready"), t.label_pair("max_fan", n=r.max_fan), strict=True))
            else:
                words = t.label_pair("not_ready")
            zh.append(f"{seat}：{words[0]}")
            en.append(f"{seat}: {words[1]}")
        said = t.join("；".join(zh), "; ".join(en), "\n")
        out.append(Paragraph(f"{esc(t.label('end_check'))}: "
                             + esc(said).replace("\n", "<br/>"), st.body))
    if t.option("show_payments") and s.payments:
        out.append(Paragraph(esc(t.label("payments")), st.h3))
        prow = [[str(i), p.payer, p.payee, str(p.chips), p.clause, Paragraph(esc(t.join(reason_text(p, "zh"), p.reason, " / ")),
                 st.cell)] for i, p in enumerate(s.payments, start=1)]
        head = ["#", t.label("payer", "\n"), t.label("payee", "\n"), t.label("chips", "\n"),
                t.label("clause", "\n"), t.label("reason", "\n")]
        out.append(grid_table(head, prow, scaled_widths([0.5, 0.8, 0.8, 0.9, 1.1, 7], fw),
                              ["RIGHT", "CENTER", "CENTER", "RIGHT", "LEFT", "LEFT"], t))
    return out


def render_hand(data: HandRulingData, t: Template, out: str | Path | None = None) -> bytes:
    st = styles(t)
    fw = frame_width(t)
    ident = identification(data, t)
    story: list[Flowable] = [Paragraph(esc(t.title), st.title)]
    line = ident
    if data.status:
        line += f" · {t.term('status_', data.status)}"
    if len(data.versions) > 1:
        line += f" · v{data.versions[-1].version}"
    story.append(Paragraph(esc(line), st.h3))
    amended = [v for v in data.versions[1:] if v.action == "amended"]
    if amended:  # only an amendment changed the hand; verify/void are status changes
        story.append(Paragraph(esc("; ".join(
            f"v{v.version} {t.label('amended')}" + (f": {v.note}" if v.note else "")
            for v in amended)), st.body))
    if data.status == "void":
        story.append(Paragraph(f"<font color='{MARK_HEX}'>{esc(t.label('void'))}</font>", st.h3))
    if data.override_reason and data.settlement.ok:
        story.append(Paragraph(f"{esc(t.label('override'))}: {esc(data.override_reason)}",
                               st.body))
    if t.header:
        story.append(Paragraph(esc(t.header).replace("\n", "<br/>"), st.body))
    story += _record_section(data, t, st)
    if data.status == "void":  # it counts nothing: no chips or payments are printed
        story.append(Paragraph(esc(t.label("void_counts_nothing")), st.body))
    else:
        story += _settlement_section(data, t, st)

    story.append(CondPageBreak(30 * mm))
    story.append(Paragraph(esc(t.label("trace")), st.h2))
    for i, step in enumerate(data.settlement.steps, start=1):
        text = esc(t.join(step_text(step, "zh"), step_text(step, "en"), "\n")).replace(
            "\n", "<br/>")
        story.append(Paragraph(f"{i}. {text}", st.mono))
    if not data.settlement.trace:
        story.append(Paragraph("—", st.body))

    story.append(CondPageBreak(30 * mm))
    story.append(Paragraph(esc(t.label("clauses")), st.h2))
    rules = data.rules or data.record.rules  # whose texts these are: a club names its sheet
    story.append(Paragraph(f"{esc(t.label('ruleset'))}: <b>{esc(rules.id)}</b> "
                           f"{esc(t.join(rules.name_zh, rules.name, ' · '))}", st.small))
    for c in data.clauses:
        title = t.join(c.title_zh, c.title_en)
        block: list[Flowable] = [Paragraph(f"<b>{esc(c.id)}</b> {esc(title)}", st.h3)]
        if c.zh:
            block.append(Paragraph(esc(c.zh), st.body))
        if c.en and t.option("show_english") and t.language != "zh":
            block.append(Paragraph(esc(c.en), st.small))
        if c.reading and t.option("show_reading"):
            said = t.join(reading_text(rules.id, c.id, c.reading, "zh") or "", c.reading, "\n")
            block.append(Paragraph(f"<i>{esc(t.label('reading'))}:</i> "
                                   + esc(said).replace("\n", "<br/>"), st.small))
        story.append(KeepTogether(block))

    tail: list[Flowable] = []  # versions, result and signatures: kept on one page
    if data.versions:
        tail.append(Paragraph(esc(t.label("versions")), st.h2))
        head = ["v", t.label("time", "\n"), t.label("referee", "\n"),
                t.label("status", "\n"), t.label("reason", "\n"),
                t.label("totals", "\n")]
        rows = [[str(v.version), v.at, v.referee, t.term("status_", v.status),
                 Paragraph(esc(t.said(v.reason, "\n")).replace("\n", "<br/>"), st.cell),
                 Paragraph(esc(v.totals), st.cell)] for v in data.versions]
        tail.append(grid_table(head, rows, scaled_widths([0.5, 2.4, 1.8, 1.2, 4, 3], fw),
                               ["RIGHT", "LEFT", "LEFT", "LEFT", "LEFT", "LEFT"], t,
                               wrap=[1, 2]))

    sig_rows = []
    for key in t.option("signatures"):
        sig_rows.append([f"{t.label(key)} {t.label('signature')}:", "",
                         f"{t.label('date')}:", ""])
    sig = Table(sig_rows, colWidths=scaled_widths([3.2, 4.5, 1.6, 2.5], fw),
                rowHeights=[12 * mm] * len(sig_rows), hAlign="LEFT",
                style=[("FONT", (0, 0), (-1, -1), st.body.fontName, t.font_size),
                       ("VALIGN", (0, 0), (-1, -1), "BOTTOM"),
                       ("LINEBELOW", (1, 0), (1, -1), 0.6, "#000000"),
                       ("LINEBELOW", (3, 0), (3, -1), 0.6, "#000000")])
    # the signatures stay on the page of the hand's result, never alone on a last page
    result = " ".join(f"{s} {signed(c)}" for s, c in data.settlement.totals.items())
    tail += [Spacer(1, 4 * mm), Paragraph(f"<b>{esc(t.label('totals'))}:</b> {esc(result)}",
                                          st.body), Spacer(1, 2 * mm), sig]
    story.append(KeepTogether(tail))
    return build_pdf(story, t, data.meta, subtitle=ident, out=out)
