"""Entry points: the app (default), `demo-agent`, and `smoke` (a headless run that prints a reply)."""

from __future__ import annotations

import argparse
import sys

PROPOSE = "propose-terminal-actions"  # for agents: runs app.proposal_cli, which must start fast


def _parser() -> argparse.ArgumentParser:
    from pathlib import Path

    parser = argparse.ArgumentParser(prog="clawqt", description="A desktop chat client for ACP agents.")
    parser.add_argument(
        "--agent", metavar='"CMD ARGS"', help="the agent command to run (default: see README)"
    )
    parser.add_argument("--record", metavar="FILE", type=Path, help="record every ACP message to FILE")
    parser.add_argument("--cwd", help="working directory for new sessions (default: current directory)")
    parser.add_argument(
        "--add-dir",
        action="append",
        default=[],
        metavar="DIR",
        help="another folder the agent may read and write (repeatable; or additionalDirectories in config)",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug details to stderr")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("demo-agent", help="run the built-in demo ACP agent on stdio")
    replay = sub.add_parser(
        "replay",
        help="render a recorded trace (--record) headlessly",
        description="Exit status: 0 a session rendered (failures of others on stderr), 1 none could be"
        " rendered (what failed on stderr), 2 the trace cannot be read.",
    )
    replay.add_argument("trace", type=Path)
    replay.add_argument("--json", action="store_true", help="print the grouped timeline as JSON")
    self_test = sub.add_parser("self-test", help="open the window, send one prompt, save a screenshot")
    self_test.add_argument("--screenshot", type=Path, help="where to save the PNG")
    self_test.add_argument("--prompt", default="Hello! Show me what you can do.")
    self_test.add_argument("--timeout", type=float, default=90.0)
    sub.add_parser(  # listed for --help; main() runs it before argparse sees it
        PROPOSE,
        add_help=False,
        help="(run by agents) propose terminal actions to the ClawQt window that sent the prompt",
    )
    smoke = sub.add_parser("smoke", help="headless: start the agent, send one prompt, print the reply")
    smoke.add_argument("prompt", nargs="?", default="Hello! Show me what you can do.")
    smoke.add_argument("--init-timeout", type=float, default=60.0)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    if words[:1] == [PROPOSE]:  # before argparse and logging: an agent waits for this process
        from app.proposal_cli import main as propose

        return propose(words[1:])
    import logging

    args = _parser().parse_args(argv)
    if args.command == PROPOSE:  # after global options: never the app, only its usage error
        from app.proposal_cli import main as propose

        return propose([])
    if args.command == "demo-agent":
        from app.demo_agent import run

        return run()
    if args.command == "replay":
        return _replay(args)
    if args.command is None:  # the window: nothing is collected until its first frame
        from app import startup_collection

        startup_collection.mark("cli")
        startup_collection.hold()
    from app.main.core.app_log import configure_logging

    log_file = configure_logging(args.verbose)
    logging.getLogger("clawqt").info("ClawQt starting; log file %s", log_file)
    if args.command == "smoke":
        from app.smoke import run_smoke

        return run_smoke(args, args.prompt)
    from app import gui

    if args.command is None:
        startup_collection.mark("imported")
    if args.command == "self-test":
        return gui.run_self_test(args)
    return gui.run_gui(args)


def _replay(args: argparse.Namespace) -> int:
    """Exit 0 when a session rendered, 1 when none could be (what failed is on stderr), 2 when the
    trace cannot be read."""
    import json

    from app.replay import TraceError, exit_status, problems, replay_json, replay_text

    try:
        replayed = replay_json(args.trace)
    except TraceError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(replayed, ensure_ascii=False, indent=1))
    elif replayed["sessions"]:
        print(replay_text(replayed))
    for line in problems(replayed):
        print(line, file=sys.stderr)
    return exit_status(replayed)


if __name__ == "__main__":
    sys.exit(main())
