"""What Python and Starlark hooks run on, in the engine's process or a supervised child: the
`Context` a hook is given, its decision frozen and checked (`frozen`), how a hook is
registered (`hookspec`), a hook that must not take the run down run apart (`supervise`), and
the handler templates (`template`)."""
