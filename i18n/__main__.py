"""``python -m i18n extract | update | init <code> | check``: see docs/translating.md."""

from __future__ import annotations

import argparse
import sys

from babel import Locale, UnknownLocaleError
from babel.messages.pofile import PoFileError

from .catalogues import read_catalogue
from .checks import problems
from .extract import PACKAGES, extract, init, shipped_codes, update, write_template


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m i18n", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("extract", help="write each package's locales/messages.pot")
    commands.add_parser("update", help="merge the templates into every .po")
    start = commands.add_parser("init", help="start a language's catalogues")
    start.add_argument("code", help="the language as Discord spells it, e.g. it or sv-SE")
    commands.add_parser("check", help="list what each catalogue still lacks")
    args = parser.parse_args(argv)
    if args.command == "extract":
        for package in PACKAGES:
            template = extract(package)
            wrote = write_template(template, package.template)
            count = sum(1 for m in template if m.id)
            print(f"{package.template}: {count} messages{'' if wrote else ', unchanged'}")
    elif args.command == "update":
        for package in PACKAGES:
            for path in update(package):
                print(f"updated {path}")
    elif args.command == "init":
        refusal = _cannot_init(args.code)
        if refusal:
            print(refusal, file=sys.stderr)
            return 2
        for package in PACKAGES:
            print(f"created {init(package, args.code)}")
    else:
        failed = False
        for package in PACKAGES:
            template = read_catalogue(package.template)
            for code in shipped_codes():
                where = f"{package.name}/locales/{code}.po"
                try:
                    catalogue = read_catalogue(package.catalogue(code), strict=True)
                except (OSError, ValueError, PoFileError) as exc:  # (UnicodeDecodeError too)
                    failed = True
                    print(f"{where}: cannot be read: {exc}")
                    continue
                for problem in problems(template, catalogue):
                    failed = True
                    print(f"{where}: {problem}")
        if not failed:
            print(f"every catalogue is complete ({', '.join(shipped_codes())})")
        return 1 if failed else 0
    return 0


def _cannot_init(code: str) -> str | None:
    """Why ``init`` must not run for ``code``: a language Babel does not know, or one that
    already has a catalogue (starting it again would throw its translations away)."""
    try:
        Locale.parse(code, sep="-")
    except (ValueError, UnknownLocaleError):
        return f"{code!r} is not a language code Babel knows (e.g. it, pt-BR, sv-SE)."
    there = [str(p.catalogue(code)) for p in PACKAGES if p.catalogue(code).exists()]
    if there:
        return (
            f"{code} already has catalogues ({', '.join(there)}): "
            "`python -m i18n update` brings them up to date."
        )
    return None


if __name__ == "__main__":
    sys.exit(main())
