"""An agent's mark when it sends no icon: initials from the words that name it, a colour index that is the
same in every run and spreads different agents over the palette."""

from app.renderer.present.agent_avatar import PALETTE_SIZE, colour_index, initials


def test_initials_come_from_the_words_that_name_the_agent():
    assert initials("OpenClaw ACP Gateway") == "O"
    assert initials("Claude Code") == "CC"
    assert initials("codex-acp") == "C"
    assert initials("fast-agent") == "F"
    assert initials("gemini") == "G"
    assert initials("école agent") == "É"
    assert initials("agent") == "A"  # only noise words: they name it after all
    assert initials("") == "?" and initials(" -- ") == "?"


def test_the_colour_is_stable_and_spreads_agents_over_the_palette():
    names = ["OpenClaw ACP Gateway", "Claude Code", "codex-acp", "gemini", "fast-agent", "Scripted", "Echo"]
    indexes = [colour_index(name) for name in names]
    assert indexes == [colour_index(name) for name in names]  # no salted hash: the same every run
    assert colour_index("Claude  Code") == colour_index("claude code")  # case and spacing do not matter
    assert all(0 <= i < PALETTE_SIZE for i in indexes) and len(set(indexes)) >= 4
    assert colour_index("OpenClaw ACP Gateway") == 1  # pinned: a change would recolour users' agents
