// filled in by the errors work
