"""The rule-agnostic application: create, play, fork, reveal, audit, import and export games.

It is handed a store (``warlog.eventstore``) and a way to find rulesets by name
(``warlog.domain.rulesets``); it never imports a ruleset itself. The CLI and the HTTP server
are skins over it.
"""
