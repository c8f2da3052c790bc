// filled in by the schemas work
