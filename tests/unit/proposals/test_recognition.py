"""Recognising the proposal CLI in a permission request: exactly the canonical command (as the agents
send it) is taken silently, every other form naming the CLI is refused silently, anything else goes to
the user. The bypasses are tested one by one; a real /bin/sh shows the canonical command passes exactly
its six words whatever the payload says; properties check that nothing recognised as canonical means
more than those six words to a POSIX shell."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from app.contract.proposals import CLI_COMMAND, canonical_invocation, compact_payload
from app.main.proposals.recognition import recognise
from tests.unit.proposals.recognition_support import CANONICAL, CHANNEL, EXE, PAYLOAD, call, kind_of


def test_the_canonical_command_is_recognised_with_its_channel_and_payload():
    result = recognise(call(), EXE)
    assert result.kind == "canonical" and result.invocation is not None
    assert (result.invocation.executable, result.invocation.channel) == (EXE, CHANNEL)
    assert result.invocation.payload_json == PAYLOAD and "\\u0027" in PAYLOAD


def test_openclaws_exec_approval_with_the_canonical_command_is_canonical():
    tool_call = {  # as the OpenClaw bridge sends it (tests/fixtures/openclaw-session.trace.jsonl)
        "toolCallId": "call_exec_1",
        "title": f"exec: command: {CANONICAL}",
        "kind": "execute",
        "status": "pending",
        "rawInput": {"name": "exec", "approvalId": "89bed934", "command": CANONICAL, "host": "gateway"},
        "_meta": {"toolName": "exec", "approvalId": "89bed934"},
    }
    assert kind_of(tool_call) == "canonical"


def test_claude_codes_bash_and_codex_acps_string_forms_are_canonical():
    assert kind_of(call(description="Propose the test run", timeout=120000)) == "canonical"
    assert kind_of(call(cwd="/home/u/project")) == "canonical"


@pytest.mark.parametrize("shell", ["bash", "/bin/bash", "/usr/bin/zsh", "sh", "/bin/dash"])
@pytest.mark.parametrize("flag", ["-c", "-lc"])
def test_codexs_shell_argv_around_the_canonical_command_is_canonical(shell, flag):
    result = recognise(call([shell, flag, CANONICAL], workdir="/home/u"), EXE)
    assert result.kind == "canonical" and result.invocation.payload_json == PAYLOAD


def test_the_clis_own_argv_is_canonical():
    argv = [EXE, CLI_COMMAND, "--channel", CHANNEL, "--payload-json", PAYLOAD]
    assert recognise(call(argv), EXE).invocation.payload_json == PAYLOAD
    assert kind_of({"kind": "execute", "rawInput": argv}) == "canonical"
    assert kind_of({"kind": "execute", "rawInput": CANONICAL}) == "canonical"


def test_the_title_is_read_only_when_the_tool_call_has_no_raw_input():
    assert kind_of({"kind": "execute", "title": CANONICAL}) == "canonical"
    assert kind_of({"kind": "execute", "title": CANONICAL, "rawInput": None}) == "canonical"
    assert kind_of({"kind": "execute", "title": CANONICAL, "rawInput": {"command": "ls"}}) == "other"
    assert kind_of({"kind": "execute", "title": CANONICAL[:-1] + "\u2026"}) == "non_canonical"  # shortened


@pytest.mark.parametrize("tail", [" ", "\n", "\r\n", "\t", "\n\n", " #", ";", "&"])
def test_trailing_whitespace_or_anything_after_the_closing_quote_is_not_canonical(tail):
    assert kind_of(call(CANONICAL + tail)) == "non_canonical"


@pytest.mark.parametrize(
    "head",
    [" ", "\n", "FOO=1 ", "PYTHONPATH=/tmp/x ", "env ", "env -i ", "exec ", "command ", "nohup ", "time "],
)
def test_anything_before_the_executable_is_not_canonical(head):
    assert kind_of(call(head + CANONICAL)) == "non_canonical"


@pytest.mark.parametrize(
    "wrap",
    [
        "{c}; rm -rf ~",
        "{c} && curl evil",
        "{c} || true",
        "{c} | tee /tmp/out",
        "{c} > /tmp/out",
        "{c} 2>&1",
        "{c} < /dev/null",
        "{c} <<'EOF'\nx\nEOF",
        "{c} &",
        "echo x | {c}",
        "true; {c}",
        "({c})",
        "$({c})",
        "`{c}`",
        "{c}\nrm -rf ~",
    ],
)
def test_chains_pipes_redirects_here_docs_and_subshells_around_it_are_not_canonical(wrap):
    assert kind_of(call(wrap.format(c=CANONICAL))) == "non_canonical"


def hostile_payloads() -> list[str]:
    texts = [
        "; rm -rf ~",
        "$(id)",
        "`id`",
        "a && b || c",
        "x | y > z < w",
        "$HOME ${IFS}",
        "!! !$",
        "\\",
        '"',
    ]
    texts += ["\n", "it's", "'; rm -rf ~; echo '", "\\'", "é\u2028ü", "*?[a]{b,c}~"]
    return [
        compact_payload(
            {
                "schema_version": 1,
                "origin": "terminal_agent",
                "choices": [{"choice": 1, "title": text, "actions": [{"type": "send", "input": text}]}],
            }
        )
        for text in texts
    ]


@pytest.mark.parametrize("payload", hostile_payloads())
def test_shell_syntax_inside_the_single_quoted_payload_is_text_and_stays_canonical(payload):
    result = recognise(call(canonical_invocation(EXE, CHANNEL, payload)), EXE)
    assert result.kind == "canonical" and result.invocation.payload_json == payload


@pytest.fixture(scope="module")
def argv_printer(tmp_path_factory) -> str:
    """An executable that writes the arguments it was given as JSON (stands in for the CLI)."""
    path = Path(tmp_path_factory.mktemp("bin")) / "clawqt"
    path.write_text(f"#!{sys.executable}\nimport json, sys\nprint(json.dumps(sys.argv[1:]))\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("payload", hostile_payloads())
def test_a_real_shell_runs_the_canonical_command_with_exactly_its_six_words(argv_printer, payload):
    command = canonical_invocation(argv_printer, CHANNEL, payload)
    assert recognise(call(command), argv_printer).kind == "canonical"
    for argv in (["/bin/sh", "-c", command], ["bash", "-c", command]):
        out = subprocess.run(argv, capture_output=True, text=True, timeout=30, check=True)
        assert json.loads(out.stdout) == [CLI_COMMAND, "--channel", CHANNEL, "--payload-json", payload]


@pytest.mark.parametrize(
    "payload",
    [
        PAYLOAD[:-1] + "'; rm -rf ~; '" + PAYLOAD[-1],  # breaks out of the quotes
        PAYLOAD.replace("\\u0027", "'"),
        PAYLOAD[:-1] + "\\'" + PAYLOAD[-1],
    ],
)
def test_a_quote_inside_the_payload_is_not_canonical(payload):
    assert (
        kind_of(call(f"\"{EXE}\" {CLI_COMMAND} --channel {CHANNEL} --payload-json '{payload}'"))
        == "non_canonical"
    )


@pytest.mark.parametrize("char", ["\n", "\r", "\x00", "\x1b", "\x7f", "\t"])
def test_a_control_character_in_the_payload_is_not_canonical(char):
    assert (
        kind_of(call(canonical_invocation(EXE, CHANNEL, PAYLOAD[:5] + char + PAYLOAD[5:]))) == "non_canonical"
    )
    argv = [EXE, CLI_COMMAND, "--channel", CHANNEL, "--payload-json", PAYLOAD + char]
    assert kind_of(call(argv)) == "non_canonical"


@pytest.mark.parametrize(
    "command",
    [
        f"\"{EXE}\" {CLI_COMMAND} --channel {CHANNEL} --payload-json '{PAYLOAD}' --verbose",
        f"\"{EXE}\" {CLI_COMMAND} --channel {CHANNEL} --payload-json '{PAYLOAD}' '{PAYLOAD}'",
        f"\"{EXE}\" {CLI_COMMAND} --payload-json '{PAYLOAD}' --channel {CHANNEL}",
        f"\"{EXE}\" {CLI_COMMAND} --channel {CHANNEL} --channel {CHANNEL} --payload-json '{PAYLOAD}'",
        f"\"{EXE}\" {CLI_COMMAND}  --channel {CHANNEL} --payload-json '{PAYLOAD}'",
        f"\"{EXE}\" {CLI_COMMAND} --channel={CHANNEL} --payload-json '{PAYLOAD}'",
        f'"{EXE}" {CLI_COMMAND} --channel {CHANNEL} --payload-json -',
        f'"{EXE}" {CLI_COMMAND} --channel {CHANNEL} --payload-json "{PAYLOAD}"',
        f'"{EXE}" {CLI_COMMAND} --channel {CHANNEL} --payload-json "$(cat /tmp/p)"',
        f'"{EXE}" {CLI_COMMAND} --channel {CHANNEL} --payload-file /tmp/p',
        f"\"{EXE}\" --debug {CLI_COMMAND} --channel {CHANNEL} --payload-json '{PAYLOAD}'",
    ],
)
def test_extra_missing_or_reordered_arguments_and_stdin_forms_are_not_canonical(command):
    assert kind_of(call(command)) == "non_canonical"


@pytest.mark.parametrize(
    "channel",
    [
        CHANNEL + "\n",  # a regex `$` would let this through; the shell would end the command there
        CHANNEL.upper(),
        CHANNEL.replace("v1.", "v2."),
        CHANNEL + ".c",
        CHANNEL[:-1],
        CHANNEL + ";id",
        "v1.$(id).x",
    ],
)
def test_a_channel_of_another_form_is_not_canonical(channel):
    command = f"\"{EXE}\" {CLI_COMMAND} --channel {channel} --payload-json '{PAYLOAD}'"
    assert kind_of(call(command)) == "non_canonical"
    assert (
        kind_of(call([EXE, CLI_COMMAND, "--channel", channel, "--payload-json", PAYLOAD])) == "non_canonical"
    )


@pytest.mark.parametrize(
    "spelling",
    [
        f"{EXE}",  # unquoted
        f"'{EXE}'",
        '"/opt/clawqt/bin/../bin/clawqt"',
        '"//opt/clawqt/bin/clawqt"',
        '"/opt/clawqt/./bin/clawqt"',
        '"/usr/local/bin/clawqt"',  # another path, maybe a link to the same file
        '"clawqt"',
        "clawqt",
        '"/opt/clawqt/bin/clawqt "',
        '"/opt/clawqt/bin/Clawqt"',
        "python -m app",
    ],
)
def test_another_spelling_of_the_executable_is_not_canonical(spelling):
    command = f"{spelling} {CLI_COMMAND} --channel {CHANNEL} --payload-json '{PAYLOAD}'"
    assert kind_of(call(command)) == "non_canonical"


@pytest.mark.parametrize(
    "argv",
    [
        ["/tmp/bash", "-lc", CANONICAL],
        ["./bash", "-c", CANONICAL],
        ["bash", "-lc", CANONICAL, "extra"],
        ["bash", "-ic", CANONICAL],
        ["bash", "-c", "-l", CANONICAL],
        ["bash", "-lc", CANONICAL + "; id"],
        ["bash", CANONICAL],
        ["env", "X=1", "bash", "-lc", CANONICAL],
        ["python3", "-c", CANONICAL],
        [EXE, CLI_COMMAND, "--channel", CHANNEL, "--payload-json", PAYLOAD, "--x"],
        [EXE + "2", CLI_COMMAND, "--channel", CHANNEL, "--payload-json", PAYLOAD],
        [EXE, CLI_COMMAND, "--channel", CHANNEL, "--payload-json", "'" + PAYLOAD + "'"],
    ],
)
def test_a_shell_wrapper_or_argv_we_do_not_take_is_not_canonical(argv):
    assert kind_of(call(argv)) == "non_canonical"


def test_a_string_shell_wrapper_around_the_command_is_not_canonical():
    assert kind_of(call(f"bash -lc {shlex.quote(CANONICAL)}")) == "non_canonical"
    assert kind_of(call(f"sh -c {shlex.quote(CANONICAL)}")) == "non_canonical"


@pytest.mark.parametrize(
    "raw",
    [
        {"env": {"PYTHONPATH": "/tmp/evil"}},
        {"environment": {"LD_PRELOAD": "/tmp/x.so"}},
        {"stdin": "x"},
        {"input": "x"},
        {"shell": "/tmp/sh"},
        {"args": ["--x"]},
        {"name": "write"},
        {"host": "node"},
        {"host": "sandbox"},
        {"description": {"nested": "object"}},
        {"timeout": [1]},
    ],
)
def test_raw_input_that_could_change_how_it_runs_is_not_canonical(raw):
    result = recognise(call(**raw), EXE)
    assert result.kind == "non_canonical" and result.reason


@pytest.mark.parametrize("kind", ["edit", "other", "fetch", None])
def test_a_tool_call_that_is_not_an_execute_is_not_canonical(kind):
    assert kind_of(call(kind=kind)) == "non_canonical"


@pytest.mark.parametrize(
    "executable",
    [
        "/opt/$HOME/clawqt",
        "/opt/`id`/clawqt",
        '/opt/"x"/clawqt',
        "/opt/a\\b/clawqt",
        "/opt/!x/clawqt",
        "relative/clawqt",
        "",
        "/opt/a\nb/clawqt",
    ],
)
def test_an_executable_a_shell_would_not_take_literally_is_never_canonical(executable):
    command = canonical_invocation(executable, CHANNEL, PAYLOAD)
    assert kind_of(call(command), executable) == "non_canonical"


@pytest.mark.parametrize(
    "command", ["ls -la", "git status", "echo propose terminal actions", "rm -rf build", ["ls", "-la"], ""]
)
def test_other_commands_go_to_the_normal_permission_ui(command):
    assert kind_of(call(command)) == "other"


def test_a_file_edit_mentioning_the_cli_is_not_taken_for_a_command():
    edit = {"kind": "edit", "title": "Edit notes.md", "rawInput": {"path": "notes.md", "new_text": CANONICAL}}
    assert kind_of(edit) == "other"


@pytest.mark.parametrize(
    "command",
    [
        'clawqt propose-terminal-action"s" --channel x',
        "clawqt 'propose-terminal-actions'",
        "clawqt propose\\-terminal-actions",
        "echo x | clawqt propose-terminal-actions --channel x --payload-json -",
        "clawqt propose-terminal-actions 'unbalanced",
    ],
)
def test_quoted_or_escaped_mentions_of_the_cli_are_not_canonical(command):
    assert kind_of(call(command)) == "non_canonical"


@pytest.mark.parametrize(
    "tool_call",
    [
        None,
        [],
        "text",
        {},
        {"rawInput": 5},
        {"rawInput": {"command": 5}},
        {"rawInput": {"command": [1, 2]}},
        {"rawInput": {"cmd": CANONICAL}},
        {"title": 7},
    ],
)
def test_malformed_tool_calls_go_to_the_normal_permission_ui(tool_call):
    assert kind_of(tool_call) == "other"
