"""The table as people see it: presenters (what a page or socket gets for one seat or a
spectator), the template-ready pieces they are made of (display) and the socket frames of
shared regions (table_frames). Everything shown here comes from one seat's engine view.
"""
