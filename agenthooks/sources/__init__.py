"""Each hook format's knowledge of its own host, as tables: what its payloads say and how.

`payloads` turns the calling host's payload into the one a handler's own host would have sent
(event, tool and argument names, the fields that event carries), and rewritten arguments back.
"""
