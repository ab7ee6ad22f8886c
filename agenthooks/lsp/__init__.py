"""`agenthooks lsp`: a language server publishing `validate`'s findings of hook files as an
editor types them, with quick fixes, hover and completion (`features`, wired in `server`).

It needs the `lsp` extra (pygls, lsprotocol): `commands.lsp` says how to install it.
"""
