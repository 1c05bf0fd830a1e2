"""The contract between the owner side (`app/main`) and the presentation side (`app/renderer`).

The two sides live in one process but talk as if a process boundary stood between them: the main side
emits envelopes and answers host calls; the renderer reduces envelopes and calls the host API it is
given. Everything that crosses is defined here, in plain data and `typing.Protocol`s, and this package
imports nothing from either side:

- `envelopes`: the routing envelopes and the results host calls return (frozen dataclasses);
- `errors`: the errors host calls raise (each with a stable `code`);
- `acp`: TypedDicts for the ACP messages both sides read (unknown fields are kept: they are dicts),
  imported for type checking; `acp_fields` reads values out of them safely at run time;
- `host_api`: the host API as Protocols (sessions, agent files, attachments, composer files, links,
  local stores).
"""
