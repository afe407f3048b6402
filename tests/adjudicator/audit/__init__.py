"""Independent audit scenarios written from the 2022 rules and the event-log contract only."""
