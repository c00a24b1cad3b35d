"""Admin registrations arrive with the models."""
