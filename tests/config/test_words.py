"""A game's ``words``: the operator's own names of the hands on its pages in a language, checked
strictly on load, written back by ``check --show``, and in the editors' schema."""

from __future__ import annotations

import json

import pytest
from helpers import config_of, problems_of

from reporting.config.effective import effective_document, to_toml
from reporting.config.keys import SCHEMA_PATH, json_schema
from reporting.config.languages import LANGUAGES, language

GAME = '[games.live-baccarat-it]\nlanguages = ["it", "en"]\n'


def test_a_games_words_are_its_own_in_each_language_it_names(tmp_path):
    config = config_of(
        tmp_path, GAME + 'words = { it = { player = "Player", banker = "Banker" } }\n'
    )
    game = config.games["live-baccarat-it"]
    assert game.words == (("it", (("banker", "Banker"), ("player", "Player"))),)
    assert game.hand_words("it") == (("banker", "Banker"), ("player", "Player"))
    assert game.hand_words("en") == ()
    assert config_of(tmp_path, GAME).games["live-baccarat-it"].words == ()


def test_check_show_writes_the_words_back_and_they_read_back_the_same(tmp_path):
    config = config_of(tmp_path, GAME + 'words = { it = { player = "Player" } }\n')
    document = effective_document(config)
    assert document["games"]["live-baccarat-it"]["words"] == {"it": {"player": "Player"}}
    text = to_toml(document)
    assert 'words = { it = { player = "Player" } }' in text
    again = config_of(tmp_path, text)
    assert again.games["live-baccarat-it"] == config.games["live-baccarat-it"]


@pytest.mark.parametrize(
    ("words", "expected"),
    [
        (
            'words = { el = { player = "Player" } }',
            "words.el: the el pages decline the hands' names",
        ),
        ('words = { ja = { player = "Joueur" } }', "words.ja: not a language of the pages"),
        ('words = { it = { plaeyr = "Player" } }', "unknown key; did you mean 'player'?"),
        ('words = { it = { player = "50% Player" } }', "is not a word or a few"),
        ('words = { it = { player = "<b>P</b>" } }', "is not a word or a few"),
        ('words = { it = { player = " Player" } }', "is not a word or a few"),
        ('words = { it = { player = "" } }', "must not be empty"),
        (  # a word wider than a printed table's column
            f'words = {{ it = {{ player = "{"W" * 21}" }} }}',
            "is not a word or a few, each of at most 20 characters",
        ),
        ('words = { it = "Player" }', "must be a table"),
        ('words = { da = { player = "Spiller" } }', "the game publishes no da pages"),
    ],
)
def test_words_are_checked_strictly(tmp_path, words, expected):
    problems = problems_of(tmp_path, GAME + words + "\n")
    assert any(expected in problem for problem in problems), problems
    assert all("operator.toml:3:" in problem for problem in problems), problems


def test_only_languages_whose_sentences_do_not_decline_the_names_take_words():
    """The languages table says how a hand's name bends: Greek declines it (its article too),
    so no word of the operator's can stand in for it; Danish adds a genitive -s."""
    takes = {entry.code: entry.hand_genitive is not None for entry in LANGUAGES}
    assert takes == {
        **{"it": True, "da": True, "el": False, "en": True},
        # the article bends with the name's gender (de la Banca, da Banca), or the name
        # itself is declined (Jucătorului, des Spielers, Spelarens)
        **{"es": False, "pt": False, "ro": False, "sv": False, "de": False},
        # the name never changes: "la main Joueur", "de hand van de Speler"
        **{"nl": True, "fr": True},
    }
    assert language("da").hand_forms("Spiller") == ("Spiller", "Spillers")
    assert language("da").hand_forms("Bankers") == ("Bankers", "Bankers'")
    with pytest.raises(ValueError, match="decline"):
        language("el").hand_forms("Player")


def test_the_schema_knows_the_words_and_is_the_shipped_one():
    schema = json_schema()
    words = schema["properties"]["games"]["additionalProperties"]["properties"]["words"]
    assert words["propertyNames"] == {"enum": ["it", "da", "en", "nl", "fr"]}
    assert set(words["additionalProperties"]["properties"]) == {"player", "banker"}
    assert json.loads(SCHEMA_PATH.read_text(encoding="utf-8")) == schema
