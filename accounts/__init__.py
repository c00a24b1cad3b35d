"""Player accounts: the bottom app. It imports no other app of the project."""
