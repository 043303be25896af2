import datetime

TOKEN_TTL = datetime.timedelta(hours=1)
RATE_LIMIT = 100
