"""Validate and settle a hand record: every chip movement with the clause that caused it.

One walk over the events in order keeps track of who is unwon at each moment (血战到底),
checks every rule as it goes (collecting *all* problems), and records payments and
trace lines. A record with any problem settles nothing.
"""

from __future__ import annotations

from collections.abc import Mapping
from operator import attrgetter
from typing import Any

from .analysis import Hand, masks_of_suits, masks_with_run, meld_suits, waits_of_suits
from .checks import Problem, hand_size_problem, suits_problem, tile_count_problems
from .record import HandRecord, KongEvent, KongKind, SeatHand, WinEvent
from .results import (  # re-exported: settle's public names stay importable from here
    SETTLEMENT_FORMAT,
    EndCheck,
    Payment,
    RuleViolation,
    SeatReadiness,
    Settlement,
    TraceStep,
    WinResult,
    dealer_by_rule,
    next_dealer,
    payment_kind,
)
from .ruleset import Ruleset
from .scoring import (
    HandScore,
    fan_text,
    hand_bonus_keys,
    hand_features,
    max_fan,
    score_hand,
    score_masks,
)
from .tiles import NUM_KINDS, tile_name
from .wording import violation_text

_INDEX = attrgetter("index")
_SUITS_IN = tuple(bin(b).count("1") for b in range(8))  # suit bit set -> number of suits
_ALL_SUITS = ("m", "p", "s")
_RULES: dict[str, Ruleset] = {}  # id -> get_ruleset(id), the shipped rulesets (cached there)
_EMPTY_SUIT = (0,) * 9
_NAMES = tuple(tile_name(i) for i in range(NUM_KINDS))
_TWO_BAMBOO = 19  # index of 2s
_NOT_READY = SeatReadiness(False)  # immutable, so every not-ready seat can share it
_EXTRA_KEYS = ("table", "round", "hand_no", "referee", "note")



# --------------------------------------------------------------------------- walk


class _Walk:
    """The state of one settlement walk (kept private: ``settle`` is the interface)."""

    __slots__ = ("r", "rules", "order", "hands", "counts", "keys", "pongs", "total", "unwon",
                 "won", "kong_tiles", "kong_kinds", "errors", "payments", "trace",
                 "wins", "kong_income", "transferred", "kong_payments_of_event", "hand_over")

    def __init__(self, record: HandRecord, rules: Ruleset) -> None:
        self.r = record
        self.rules = rules
        self.order = rules.seats
        # per seat, computed once: concealed count vector, its three per-suit keys and the
        # pong tile indices; ``total`` sums the concealed counts for the §2.0 tile count
        self.hands: dict[str, SeatHand] = {}
        self.counts: dict[str, list[int]] = {}
        self.keys: dict[str, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = {}
        self.pongs: dict[str, tuple[int, ...]] = {}
        hands, counts, keys, pongs = self.hands, self.counts, self.keys, self.pongs
        total = [0] * NUM_KINDS
        for h in record.seats:
            seat = h.seat
            hands[seat] = h
            c = [0] * NUM_KINDS
            for x in h.concealed:
                i = x.index
                c[i] += 1
                total[i] += 1
            counts[seat] = c
            keys[seat] = (tuple(c[0:9]), tuple(c[9:18]), tuple(c[18:27]))
            if h.pongs:
                pongs[seat] = p = tuple(map(_INDEX, h.pongs))
                for i in p:
                    total[i] += 3
            else:
                pongs[seat] = ()
        self.total = total  # concealed and pongs; the tile-count check adds the events
        self.unwon: list[str] = list(rules.seats)
        self.won: set[str] = set()
        # each seat's declared kongs as tile indices and kind names, kept up to date by ``kong``
        self.kong_tiles: dict[str, tuple[int, ...]] = dict.fromkeys(rules.seats, ())
        self.kong_kinds: dict[str, tuple[str, ...]] = dict.fromkeys(rules.seats, ())
        self.errors: list[RuleViolation] = []
        self.payments: list[Payment] = []
        self.trace: list[TraceStep] = []
        self.wins: list[WinResult] = []
        # kong income in order, for refunds (payments per kong event: for 杠上炮 transfer)
        self.kong_income: list[Payment] = []
        self.transferred: set[int] = set()  # ids of kong payments handed over (J7/V6)
        self.kong_payments_of_event: dict[int, list[Payment]] = {}
        self.hand_over = False

    # -- helpers
    def err(self, check: str, seat: str | None, code: str, **params: Any) -> None:
        """A violation of ``check`` (the ruleset cites its clause): ``violation.<code>``."""
        ps = tuple(params.items())
        self.errors.append(RuleViolation(self.rules.vclause(check), seat,
                                         violation_text(code, ps, "en"), code, ps))

    def _problem(self, seat: str | None, p: Problem | None) -> None:
        """Report a failed shared check (:mod:`.checks`) under this ruleset's clause."""
        if p is not None:
            self.err(p.check, seat, p.code, **dict(p.params))

    def pay(self, payer: str, payee: str, chips: int, clause: str, code: str,
            params: tuple[tuple[str, Any], ...] = ()) -> Payment:
        p = Payment(payer, payee, chips, clause, code, params)
        if chips:
            self.payments.append(p)
        return p

    def others_unwon(self, *exclude: str) -> list[str]:
        return [s for s in self.unwon if s not in exclude]

    # -- events
    def run(self) -> None:
        rules = self.rules
        for idx, ev in enumerate(self.r.events):
            if self.hand_over or len(self.unwon) <= 1:
                who = ev.seat if isinstance(ev, KongEvent) else None
                self.err("blood_battle", who, "event_after_one_left" if rules.blood_battle
                         else "event_after_first_win", event=idx + 1)
                continue
            if isinstance(ev, KongEvent):
                self.kong(idx, ev)
            else:
                self.win(idx, ev)
        if len(self.unwon) >= 2 and not self.r.wall_exhausted and not self.hand_over:
            self.err("blood_battle", None, "not_finished", p=tuple(self.unwon))

    def kong(self, idx: int, ev: KongEvent) -> None:
        rules, seat, t = self.rules, ev.seat, ev.tile
        if seat in self.won:
            self.err("blood_battle", seat, "kong_after_win", s=seat, t=str(t))
            return
        kind = ev.kind._value_  # KongKind.value; the property (and an Enum's hash) are slow
        clause, amount = rules.kong_payments.get(kind, ("", 0))
        amount *= rules.stake
        t = _NAMES[t.index]  # the tile's name, as str(t) writes it
        made: list[Payment] = []
        if kind == "direct":
            frm = ev.from_seat
            assert frm is not None
            bad = frm == seat or frm in self.won
            if frm == seat:
                self.err("direct_kong", seat, "kong_own_discard", s=seat, t=t)
            elif bad:
                self.err("direct_kong", frm, "kong_discarder_won", f=frm, t=t, s=seat)
            if bad:  # the meld is still the seat's (else its win would miss 3 tiles)
                self.kong_tiles[seat] += (ev.tile.index,)
                self.kong_kinds[seat] += (kind,)
                return
            why = (("t", t),)
            if amount:
                made.append(Payment(frm, seat, amount, clause, "direct_kong", why))
                self.trace.append(TraceStep("direct_kong", clause, seat, t, amount,
                                            (("f", frm),)))
            else:
                self.trace.append(TraceStep("direct_kong.free", clause, seat, t, None,
                                            (("f", frm),)))
        else:
            payers = tuple(s for s in self.unwon if s != seat)
            code = f"{kind}_kong"
            if amount:
                why = (("t", t),)
                made = [Payment(p, seat, amount, clause, code, why) for p in payers]
                self.trace.append(TraceStep(code, clause, seat, t, amount, (("p", payers),)))
            else:
                self.trace.append(TraceStep(f"{code}.free", clause, seat, t))
        self.payments += made  # every one is for a non-zero amount
        self.kong_tiles[seat] += (ev.tile.index,)
        self.kong_kinds[seat] += (kind,)
        self.kong_payments_of_event[idx] = made
        if made:
            self.kong_income += made

    def _winner_hand(self, seat: str, tile: int) -> tuple[list[int], frozenset[int], bool]:
        """The winner's concealed counts with the winning tile, its feature sets (empty: no
        legal reading), and whether §2.1 (count) and §2.4 (suits) hold."""
        h = self.hands[seat]
        counts = self.counts[seat].copy()
        kongs = self.kong_tiles[seat]
        pongs = self.pongs[seat]
        ok = True
        if len(h.concealed) + 3 * (len(pongs) + len(kongs)) != 13:
            self._problem(seat, hand_size_problem(seat, len(h.concealed), len(pongs),
                                                  len(kongs)))
            ok = False
        counts[tile] += 1
        k0, k1, k2 = self.keys[seat]
        suit = tile // 9
        if suit == 0:
            k0 = tuple(counts[0:9])
        elif suit == 1:
            k1 = tuple(counts[9:18])
        else:
            k2 = tuple(counts[18:27])
        masks, suits = masks_of_suits(k0, k1, k2, pongs + kongs)
        if _SUITS_IN[suits] > self.rules.max_suits_in_win:
            self._problem(seat, suits_problem(seat, _SUITS_IN[suits], self.rules))
            ok = False
        return counts, masks, ok

    def _roots(self, counts: list[int], pongs: tuple[int, ...], kongs: tuple[int, ...]) -> int:
        """Roots of a winning hand, counted as :func:`score_hand` counts them."""
        rules = self.rules
        if rules.root_concealed_only or not pongs:
            n = counts.count(4)
        else:
            c = counts.copy()
            for p in pongs:
                c[p] += 3
            n = c.count(4)
        if rules.root_counts_kongs:
            n += len(kongs)
        return n

    def win(self, idx: int, ev: WinEvent) -> None:
        rules, t = self.rules, ev.tile
        flags = ev.flags
        frm = ev.from_seat
        seats = list(ev.seats)
        valid = True
        # §2.5: a seat listed twice, or that has won already
        if len(seats) > 1 and len(set(seats)) != len(seats):
            dup = next(s for s in seats if seats.count(s) > 1)
            self.err("blood_battle", dup, "listed_twice", s=dup)
            valid = False
            seats = list(dict.fromkeys(seats))
        for s in seats:
            if s in self.won:
                self.err("blood_battle", s, "second_win", s=s)
                valid = False
        if frm is None and len(seats) > 1:
            self.err("self_drawn", None, "several_self_drawn", p=tuple(seats))
            valid = False
        if frm is not None:
            if frm in seats:
                self.err("discard_win", frm, "win_own_discard", f=frm, t=str(t))
                valid = False
            elif frm in self.won:
                self.err("discard_win", frm, "discarder_won", f=frm, t=str(t))
                valid = False
        if flags and not self._flag_checks(idx, ev, seats):
            valid = False
        # Score each winner
        results: list[tuple[str, HandScore]] = []
        for s in seats:
            if s in self.won:
                continue
            counts, masks, ok = self._winner_hand(s, t.index)
            if not masks:
                self.err("legal_hand", s, "not_a_winning_hand", s=s, t=str(t))
                valid = False
                continue
            if not ok:
                valid = False
                continue
            kinds = self.kong_kinds[s]
            pongs, kongs = self.pongs[s], self.kong_tiles[s]
            extra: tuple[str, ...] = ()
            hf = 0
            if rules.hand_features:  # 金钩钓 / 门清 / 中张, as pattern features or bonuses
                hf = hand_features(rules, counts, pongs, kongs, kinds)
                if hf:
                    masks = frozenset(m | hf for m in masks)
                    extra = hand_bonus_keys(rules, hf)
            if frm is None and "self_drawn" in rules.situational_bonuses:
                extra += ("self_drawn",)  # 自摸加番
            sc = score_masks(rules, masks, self._roots(counts, pongs, kongs), flags, kinds, extra)
            mt: set[int] = set()
            if t.index == _TWO_BAMBOO and "middle_two" in rules.situational_bonuses:
                hand = Hand(tuple(counts), pongs, kongs)
                mt = {m | hf for m in self._middle_two_masks(hand, t.index)}
            if mt:  # 卡二条: a reading with the winning 2s in the middle of 123s scores +1
                alt = score_hand(rules, hand, mt, flags=flags, kong_kinds=kinds,
                                 extra_bonuses=extra + ("middle_two",))
                if alt.raw_fan > sc.raw_fan:
                    sc = alt
            if ev.passed_fan is not None and frm is not None and rules.passed_win_clause:
                if not rules.passed_win_higher_fan_allows:
                    self.err("passed_win", s, "passed_win", s=s)
                    valid = False
                elif sc.fan <= ev.passed_fan:
                    self.err("passed_win", s, "passed_win_fan", s=s, x=ev.passed_fan,
                             y=sc.fan)
                    valid = False
            results.append((s, sc))
        if valid:
            self._pay_win(idx, ev, results)
        for s in seats:
            if s not in self.won:
                self.won.add(s)
                if s in self.unwon:
                    self.unwon.remove(s)
        if not rules.blood_battle:
            self.hand_over = True

    def _flag_checks(self, idx: int, ev: WinEvent, seats: list[str]) -> bool:
        """The checks of a win's situational flags; False when one fails."""
        rules, t, flags, frm = self.rules, ev.tile, ev.flags, ev.from_seat
        valid = True
        prev = self.r.events[idx - 1] if idx > 0 else None
        robbing = "robbing_kong" in flags
        if robbing:
            if frm is None:
                self.err("robbing_kong", seats[0], "robbing_needs_from")
                valid = False
            elif t not in self.hands[frm].pongs:
                self.err("robbing_kong", frm, "robbing_no_pong", f=frm, t=str(t))
                valid = False
        if "kong_bloom" in flags:
            if frm is not None:
                self.err("kong_bloom", seats[0], "bloom_on_discard")
                valid = False
            elif not (isinstance(prev, KongEvent) and prev.seat == seats[0]):
                self.err("kong_bloom", seats[0], "bloom_no_kong", s=seats[0])
                valid = False
        if "kong_discard" in flags:
            if frm is None:
                self.err("kong_discard", seats[0], "kong_discard_self_drawn")
                valid = False
            elif not (isinstance(prev, KongEvent) and prev.seat == frm):
                self.err("kong_discard", frm, "kong_discard_no_kong", f=frm)
                valid = False
        for s in seats if "heavenly" in flags or "earthly" in flags else ():
            melds = bool(self.hands[s].pongs or self.kong_tiles[s])
            if "heavenly" in flags:
                why: list[tuple[str, tuple[tuple[str, Any], ...]]] = []
                if s != self.r.dealer:
                    why.append(("not_dealer", (("s", s),)))
                if frm is not None:
                    why.append(("not_self_drawn", ()))
                if idx != 0:
                    why.append(("not_first_event", ()))
                if melds:
                    why.append(("has_meld", (("s", s),)))
                if why:
                    self.err("heavenly_earthly", s, "heavenly_impossible", why=tuple(why))
                    valid = False
            if "earthly" in flags:
                why = []
                if s == self.r.dealer:
                    why.append(("is_dealer", (("s", s),)))
                if len(seats) != 1:
                    why.append(("shared_win", ()))
                if melds:
                    why.append(("has_meld", (("s", s),)))
                if any(isinstance(e, KongEvent) for e in self.r.events[:idx]):
                    why.append(("kong_before", ()))
                if why:
                    self.err("heavenly_earthly", s, "earthly_impossible", why=tuple(why))
                    valid = False

        if "first_discard" in flags and "first_discard" in rules.validation:
            common = []  # what rules out 第一和 for every winner of this event
            if frm is None or frm != self.r.dealer:
                common.append(("not_dealer_discard", ()))
            if any(not (isinstance(e, KongEvent) and e.seat == self.r.dealer
                        and e.kind is KongKind.CONCEALED) for e in self.r.events[:idx]):
                common.append(("dealer_concealed_only", ()))
            for s in seats:  # flags apply to every winner; each is cited for its own melds
                why = list(common)
                if s == self.r.dealer:
                    why.append(("dealer_own_discard", ()))
                # Z3 Reading: nothing was claimed before the first discard
                if self.hands[s].pongs:
                    why.append(("holds_pong", (("s", s), ("ts", tuple(
                        map(str, self.hands[s].pongs))))))
                if self.kong_tiles[s]:
                    why.append(("holds_kong", (("s", s),)))
                if why:
                    self.err("first_discard", s, "first_discard_impossible", why=tuple(why))
                    valid = False
        if "last_tile" in flags:  # 海底捞月 / 海底炮: the wall's last tile ends the hand
            if not self.r.wall_exhausted:
                self.err("last_tile", seats[0], "last_tile_not_exhausted")
                valid = False
            if idx != len(self.r.events) - 1:
                self.err("last_tile", seats[0], "last_tile_followed", event=idx + 2)
                valid = False
        if "declared_ready" in flags and "declared_ready" in rules.validation:
            for s in seats:  # Z3 Reading: 报调后不能换牌; a concealed kong of a later draw is allowed
                melds = [("pong", (("t", str(t)),)) for t in self.hands[s].pongs]
                melds += [(f"{k}_kong", (("t", _NAMES[i]),))
                          for k, i in zip(self.kong_kinds[s], self.kong_tiles[s], strict=True)
                          if k in ("direct", "added")]
                if melds:
                    self.err("declared_ready", s, "declared_ready_melds", s=s,
                             melds=tuple(melds))
                    valid = False
        return valid

    def _middle_two_masks(self, hand: Hand, tile: int) -> set[int]:
        """Readings where the winning 2s is the middle of 1s-2s-3s (Zigong's 卡二条)."""
        if "middle_two" not in self.rules.situational_bonuses or tile != _TWO_BAMBOO:
            return set()
        return masks_with_run(hand, _TWO_BAMBOO - 1)

    def _pay_win(self, idx: int, ev: WinEvent, results: list[tuple[str, HandScore]]) -> None:
        rules, frm = self.rules, ev.from_seat
        t = _NAMES[ev.tile.index]  # the tile's name, as str(tile) writes it
        prev = self.r.events[idx - 1] if idx > 0 else None
        robbing = "robbing_kong" in ev.flags
        chips_of = {}
        wins, trace, payments = self.wins, self.trace, self.payments
        how = (("f", frm),) if frm else ()
        kind = "win.discard" if frm else "win.self_drawn"
        for s, sc in results:
            chips = rules.chips(sc.fan)
            chips_of[s] = chips
            wins.append(WinResult(s, len(wins) + 1, t, frm, sc, chips, ev.flags))
            parts = (("parts", fan_text(sc)), ("fan", sc.fan), ("c", chips),
                     ("unit", "one" if chips == 1 else "many"))
            if sc.raw_fan != sc.fan:
                trace.append(TraceStep(kind + ".capped", sc.pattern_clause, s, t, None,
                                       how + parts + (("raw", sc.raw_fan),)))
            else:
                trace.append(TraceStep(kind, sc.pattern_clause, s, t, None, how + parts))
            for b in sc.bonuses:
                trace.append(TraceStep("bonus", b.clause, s, None, b.fan, (("name", b.name),)))
        bloom_payer = None
        if ("kong_bloom" in ev.flags and rules.bloom_after_direct_kong_paid_by_discarder
                and isinstance(prev, KongEvent) and prev.kind is KongKind.DIRECT):
            bloom_payer = prev.from_seat
        if frm is not None:
            clause = rules.discard_win_clause
            code = "robbed_kong" if robbing else "discard_win"
            why = (("t", t),)
            step = "robbed" if robbing else "discard_win"
            for s, _ in results:
                chips = chips_of[s]
                if chips:
                    payments.append(Payment(frm, s, chips, clause, code, why))
                trace.append(TraceStep(step, clause, s, t, chips, (("f", frm),)))
            if robbing and rules.redirect_robbed_tax:
                rclause = rules.robbed_kong_clause
                amount = rules.kong_payments.get("added", ("", 0))[1] * rules.stake
                for s, _ in results:
                    payers = self.others_unwon(frm, s)
                    for p in payers:
                        self.pay(p, s, amount, rclause, "robbed_tax", (("t", t),))
                    self.trace.append(TraceStep("robbed_tax", rclause, s, t, amount,
                                                (("f", frm), ("p", tuple(payers)))))
            if "kong_discard" in ev.flags and rules.kong_discard_transfer:
                self._transfer(idx - 1, frm, [s for s, _ in results])
        elif bloom_payer is not None:
            clause = rules.discard_win_clause
            for s, _ in results:
                self.pay(bloom_payer, s, chips_of[s], clause, "bloom", (("t", t),))
                self.trace.append(TraceStep("bloom", clause, s, None, chips_of[s],
                                            (("f", bloom_payer),)))
        else:
            clause = rules.self_drawn_clause
            why = (("t", t),)
            for s, _ in results:
                chips = chips_of[s]
                payers = [p for p in self.unwon if p != s]
                if chips:
                    payments += [Payment(p, s, chips, clause, "self_drawn", why)
                                 for p in payers]
                trace.append(TraceStep("self_draw", clause, s, t, chips,
                                       (("p", tuple(payers)),)))
                if rules.self_drawn_extra is not None and payers:
                    self._self_drawn_extra(s, t, payers)

    def _self_drawn_extra(self, s: str, t: str, payers: list[str]) -> None:
        """自摸加底: every payer of a self-drawn win pays a fixed amount more."""
        rules = self.rules
        assert rules.self_drawn_extra is not None
        clause, chips = rules.self_drawn_extra
        amount = chips * rules.stake
        why = (("t", t),)
        self.payments.extend(Payment(p, s, amount, clause, "self_draw_extra", why)
                             for p in payers)
        self.trace.append(TraceStep("self_draw_extra", clause, s, None, amount,
                                    (("p", tuple(payers)),)))

    def _transfer(self, kong_idx: int, frm: str, winners: list[str]) -> None:
        clause = self.rules.kong_discard_transfer or ""
        made = self.kong_payments_of_event.get(kong_idx, [])
        total = sum(p.chips for p in made)
        if not total:
            return
        for s in winners:
            self.pay(frm, s, total, clause, "kong_discard_transfer")
        self.trace.append(TraceStep("transfer", clause, None, None, total,
                                    (("f", frm), ("w", tuple(winners)))))
        self.transferred.update(id(p) for p in made)

    # -- end of hand
    def end_check(self) -> EndCheck:
        rules = self.rules
        ec = rules.end_check
        if not ec or not self.r.wall_exhausted or len(self.unwon) < 2 or self.hand_over:
            return EndCheck(False, (), (), {})
        info: dict[str, SeatReadiness] = {}
        pigs: list[str] = []
        xiang: list[str] = []
        ready: list[str] = []
        not_ready: list[str] = []
        max_suits = rules.max_suits_in_win
        for s in self.unwon:
            counts = self.counts[s]
            pongs = self.pongs[s]
            kongs = self.kong_tiles[s]
            keys = self.keys[s]
            melds = pongs + kongs
            used = (keys[0] != _EMPTY_SUIT) | ((keys[1] != _EMPTY_SUIT) << 1) | (
                (keys[2] != _EMPTY_SUIT) << 2)
            if melds:
                used |= meld_suits(melds)
            if used == 7:
                pigs.append(s)
            if len(self.hands[s].concealed) + 3 * (len(pongs) + len(kongs)) != 13:
                xiang.append(s)
                info[s] = _NOT_READY
                not_ready.append(s)
                continue
            held = counts.copy()
            for p in pongs:
                held[p] += 3
            for k in kongs:
                held[k] += 4
            ws = waits_of_suits(keys, held, used, melds, max_suits)
            if not ws:
                info[s] = _NOT_READY
                not_ready.append(s)
                continue
            mf = max_fan(rules, counts, pongs, kongs, ws, self.kong_kinds[s])
            info[s] = SeatReadiness(True, mf, tuple([_NAMES[w.tile] for w in ws]))
            ready.append(s)
        rc_clause = (ec.get("ready_check") or {}).get("clause")
        if rc_clause:
            for s in self.unwon:
                r = info[s]
                if r.ready:
                    self.trace.append(TraceStep("ready", rc_clause, s, None, None,
                                                (("ts", r.waits), ("fan", r.max_fan))))
                elif s in xiang:
                    self.trace.append(TraceStep("xianggong", rc_clause, s))
                else:
                    self.trace.append(TraceStep("not_ready", rc_clause, s))
        fp = ec.get("flower_pig")
        if fp:
            clause, amount = fp["clause"], int(fp["chips"]) * rules.stake
            for pig in pigs:
                payees = [s for s in self.order if s not in pigs]
                for p in payees:
                    self.pay(pig, p, amount, clause, "flower_pig")
                self.trace.append(TraceStep("flower_pig", clause, pig, None, amount,
                                            (("p", tuple(payees)),)))
        rc = ec.get("ready_check")
        if rc:
            clause = rc["clause"]
            pigs_pay = (fp or {}).get("pays_ready_check", True)
            # what each ready seat is paid is the same for every payer
            owed = [(r, rules.chips(mf), mf, (("r", r), ("fan", mf)))
                    for r in ready for mf in (info[r].max_fan,)]
            for payer in not_ready:
                if payer in pigs and not pigs_pay:
                    continue
                kind = "ready_check.xianggong" if payer in xiang else (
                    "ready_check.flower_pig" if payer in pigs else "ready_check")
                for r, chips, _mf, why in owed:
                    self.pay(payer, r, chips, clause, "ready_check", why)
                    self.trace.append(TraceStep(kind, clause, payer, None, chips, why))
        pd = ec.get("price_difference")
        if pd:
            clause = pd["clause"]
            for i, a in enumerate(ready):
                for b in ready[i + 1:]:
                    fa, fb = info[a].max_fan, info[b].max_fan
                    if fa == fb:
                        continue
                    small, large = (a, b) if fa < fb else (b, a)
                    diff = rules.chips(info[large].max_fan) - rules.chips(info[small].max_fan)
                    why = (("a", small), ("x", info[small].max_fan), ("b", large),
                           ("y", info[large].max_fan))
                    self.pay(small, large, diff, clause, "price_difference", why)
                    self.trace.append(TraceStep("price_difference", clause, None, None, diff,
                                                why))
        rf = ec.get("refund")
        if rf:
            clause = rf["clause"]
            for s in not_ready if self.kong_income else ():
                back = [p for p in self.kong_income
                        if p.payee == s and id(p) not in self.transferred]
                for p in back:
                    self.pay(s, p.payer, p.chips, clause, "refund",
                             (("reason", (p.code, p.params)),))
                if back:
                    self.trace.append(TraceStep("refund", clause, s, None, None, (
                        ("back", tuple((p.chips, p.payer) for p in back)),)))
        return EndCheck(True, tuple(pigs), tuple(xiang), info)


def _tile_count_errors(walk: _Walk) -> list[RuleViolation]:
    record, rules = walk.r, walk.rules
    counts = walk.total
    for ev in record.events:
        counts[ev.tile.index] += 4 if type(ev) is KongEvent else 1
    if max(counts) <= 4:  # the common case: nothing to report unless a suit is not played
        suits = rules.suits
        if suits == _ALL_SUITS or all(not any(counts[s * 9:s * 9 + 9]) for s in range(3)
                                      if "mps"[s] not in suits):
            return []
    return [RuleViolation(p.clause(rules), None, p.message, p.code, p.params)
            for p in tile_count_problems(counts, rules)]


def settle(record: HandRecord, rules: Ruleset | None = None) -> Settlement:
    """Validate and settle one hand record under its ruleset.

    ``rules`` may be the record's ruleset under a tournament's settings
    (``get_ruleset(id).with_settings(cap_fan=..., stake=...)``); it must have the record's id.
    """
    if rules is None:
        rid = record.ruleset
        rules = _RULES.get(rid) if type(rid) is str else None
        if rules is None:
            rules = _RULES[rid] = record.rules
    elif rules.id != record.ruleset:
        raise ValueError(f"record is under {record.ruleset!r}, not {rules.id!r}")
    walk = _Walk(record, rules)
    walk.errors.extend(_tile_count_errors(walk))
    walk.run()
    given = record.extra
    extra = {k: given[k] for k in _EXTRA_KEYS if k in given} if given else {}
    if walk.errors:
        return Settlement(rules.id, False, tuple(walk.errors), (), None, (), {}, (), extra)
    end = walk.end_check()
    totals = dict.fromkeys(rules.seats, 0)
    for p in walk.payments:
        totals[p.payer] -= p.chips
        totals[p.payee] += p.chips
    return Settlement(rules.id, True, (), tuple(walk.wins), end, tuple(walk.payments), totals,
                       tuple(walk.trace), extra)


def as_stored(stored: Mapping[str, Any], record: HandRecord | Mapping[str, Any],
              rules: Ruleset | None = None) -> Settlement | None:
    """Today's settlement of ``record`` (a record or its stored document) when it is exactly
    the ``stored`` document, so that its steps, violations and reasons are data to show in
    any language; None when the document was written otherwise (an older engine, other
    settings) or the record no longer reads: show it as stored."""
    try:
        if not isinstance(record, HandRecord):
            record = HandRecord.from_dict(dict(record), rules)
        s = settle(record, rules)
    except ValueError:
        return None
    return s if s.to_dict() == dict(stored) else None


def score_dict(data: Any) -> dict[str, Any]:
    """Record dict -> settlement dict; raises RecordError when the record cannot be read."""
    return settle(HandRecord.from_dict(data)).to_dict()


__all__ = ["SETTLEMENT_FORMAT", "EndCheck", "as_stored", "Payment", "RuleViolation", "SeatReadiness",
           "Settlement", "TraceStep", "WinResult", "next_dealer", "dealer_by_rule", "payment_kind", "score_dict", "settle"]
