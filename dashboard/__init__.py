"""The Streamlit dashboard (run ``streamlit run dashboard/app.py``)."""
