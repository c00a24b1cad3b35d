"""Tournament models arrive with the tournaments issue."""
