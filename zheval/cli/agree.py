"""``zheval agree``: rank correlations between each metric and each human rating column of a filled review sheet
(:func:`zheval.adapters.duck.review.review_agreement`).

::

    zheval agree --ratings review_sheet.csv --key review_key.json [--bootstrap 1000] [--seed S]
                 [--format table|json] [--output FILE]
"""

from __future__ import annotations



from .commands import app
from ..text.terminal import terminal_json
from .options import Format, UserError, echo, run_command
from .params import option, takes

__all__ = ["agree"]


@app.command()
@takes("ratings", "key", "bootstrap", "seed", "fmt", "output",
       fmt=option(Format, "--format", "-f", default=Format.table, help="output format: table | json"))
def agree(o) -> None:
    """Spearman and Kendall correlations (bootstrap intervals over items) between each metric of the key and each
    rating column of the filled sheet, overall and per domain. Empty rating cells are counted and listed."""

    def go():
        from ..adapters.duck.review import read_key, read_ratings, review_agreement
        from ..adapters.files import atomic_write
        from .files import check_output_dir, check_paths

        if o.fmt == Format.markdown:
            raise UserError("--format markdown is not available for agree; use table or json")
        check_output_dir(o.output)
        check_paths({"--ratings": o.ratings, "--key": o.key}, {"--output": o.output})
        for flag, p in (("--ratings", o.ratings), ("--key", o.key)):
            if p.is_dir():
                raise UserError(f"{flag} must be a file, got a directory: {p}")
        key = read_key(o.key)
        ratings, info = read_ratings(o.ratings, key)
        rep = review_agreement(ratings, key, info, bootstrap=o.bootstrap, seed=o.seed,
                               sources={"ratings": str(o.ratings), "key": str(o.key)})
        text = terminal_json(rep.to_dict(), indent=2) + "\n" if o.fmt == Format.json else rep.render()
        if o.output is not None:
            atomic_write(o.output, text)
            echo(f"wrote {o.output}", err=True)
        else:
            echo(text, nl=False)

    run_command(go)
