"""Augment (Auggie) as a host: its writer (`render`); its handlers' answers read by
`kinds.protocols.augment`."""
