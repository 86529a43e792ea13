"""``referee-app standings``: the leaderboard (text, JSON or CSV)."""

from __future__ import annotations

from pathlib import Path

import click

from referee_app.cli.common import NUMBER
from referee_app.core.display import pad

from .options import (
    db_option,
    echo_json,
    handle_errors,
    open_db,
)


@click.command()
@click.option("--round", "round_no", type=NUMBER, default=None, help="That round only.")
@click.option("--through", type=NUMBER, default=None, help="Rounds 1..N.")
@click.option("--json", "as_json", is_flag=True,
              help='A list of {"rank", "player", "chips", ...} sorted by rank.')
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None,
              help="Also write the standings to this CSV file.")
@db_option
@handle_errors
def standings(round_no: int | None, through: int | None, as_json: bool, csv_path: str | None,
              db: Path) -> None:
    """The leaderboard, from the current version of every hand.

    When the tournament counts only verified hands ('event set --verified-only'), the
    text says PROVISIONAL while hands in the scope wait for verification (the JSON and CSV
    rows are the counted hands' alone)."""
    with open_db(db) as t:
        rows = t.standings.table(round_no, through_round=through)
        if csv_path:
            t.standings.export_csv(csv_path, round=round_no, through_round=through)
        if as_json:
            echo_json([r.to_dict() for r in rows])
            waiting = t.standings.provisional(round_no, through_round=through)
            if waiting:  # stdout stays the rows; the warning goes where a person sees it
                click.echo(f"PROVISIONAL: only verified hands count; {waiting} hand(s) not "
                           "yet verified are left out", err=True)
            return
        scope = (f"round {round_no}" if round_no else f"rounds 1-{through}" if through
                 else "overall")
        click.echo(f"{t.info.name} — standings ({scope}); tie-break: "
                   f"{', '.join(t.info.tie_break)}")
        waiting = t.standings.provisional(round_no, through_round=through)
        if waiting:
            click.echo(f"PROVISIONAL: only verified hands count; {waiting} hand(s) not yet "
                       "verified are left out")
        rounds = sorted({n for r in rows for n in r.per_round}) if round_no is None else []
        click.echo(f"{'rank':>4}  {'player':<16}{'chips':>7}{'hands':>6}{'wins':>5}"
                   f"{'self':>5}{'dealt':>6}{'pigs':>5}{'max':>4}{'pen':>5}"
                   + "".join(f"{'R' + str(n):>6}" for n in rounds))
        for r in rows:
            rank = f"{r.rank}=" if r.tied else str(r.rank)
            click.echo(f"{rank:>4}  {pad(r.player, 16)}{r.chips:>7}{r.hands:>6}{r.wins:>5}"
                       f"{r.self_drawn:>5}{r.discards_paid:>6}{r.flower_pigs:>5}"
                       f"{r.largest_win_fan:>4}{r.penalties:>5}"
                       + "".join(f"{r.per_round.get(n, 0):>6}" for n in rounds))
        click.echo("columns: self = self-drawn wins, dealt = discards paid (点炮), pigs = flower "
                   "pigs, max = largest win (fan), pen = penalties; '=' marks a shared rank")


