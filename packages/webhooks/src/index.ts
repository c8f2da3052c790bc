// filled in by the webhooks work
