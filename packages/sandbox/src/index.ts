// filled in by the sandbox work
