"""Tables, hands and move logs arrive with the live-play issues."""
