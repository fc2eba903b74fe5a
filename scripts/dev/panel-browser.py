#!/usr/bin/env python3
"""Drives Debian's chromium through Debian's chromedriver for the web panel's browser tests.

Reads one JSON command per line on standard input and prints one JSON answer per line,
{"seq": N, "ok": true, "value": ...}, so a Swift test can steer a real browser step by step
while it measures the audio itself. Nothing is downloaded: the browser and the driver are
the system's (scripts/install-deps.sh), and Selenium Manager is kept offline.

Commands: open URL (waits until the page is live and shows figures), eval JS (returns its
value), keys ID KEY COUNT (focuses an element and presses a key), click ID, screenshot PATH,
viewport WIDTH (a phone's viewport through chromium's device emulation), quit.
"""
import json
import os
import sys
import time

os.environ["SE_OFFLINE"] = "true"
from selenium import webdriver  # noqa: E402
from selenium.webdriver.chrome.service import Service  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import WebDriverWait  # noqa: E402


def browser():
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--window-size=1280,1500", "--no-first-run", "--disable-extensions"):
        options.add_argument(flag)
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def run(driver, command):
    name = command["cmd"]
    if name == "open":
        driver.get(command["url"])
        WebDriverWait(driver, 20).until(
            lambda d: d.execute_script("return (window.voicerackUpdates || 0) > 3"))
        return driver.execute_script("return document.getElementById('link').textContent")
    if name == "eval":
        return driver.execute_script(command["js"])
    if name == "wait":
        WebDriverWait(driver, command.get("timeout", 20)).until(
            lambda d: d.execute_script(command["js"]))
        return driver.execute_script(command["js"])
    if name == "keys":
        element = driver.find_element(By.ID, command["id"])
        element.click()
        key = getattr(Keys, command["key"])
        for _ in range(command.get("count", 1)):
            element.send_keys(key)
        return element.get_attribute("value")
    if name == "click":
        driver.find_element(By.ID, command["id"]).click()
        return True
    if name == "quit":
        return True
    if name == "viewport":
        # A phone's viewport (CSS pixels), as chromium's device emulation gives it: the page
        # lays out at this width and reports horizontal overflow in scrollWidth.
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": command["width"], "height": command.get("height", 915),
            "deviceScaleFactor": 1, "mobile": command.get("mobile", True)})
        return driver.execute_script("return window.innerWidth")
    if name == "screenshot":
        driver.execute_script("window.scrollTo(0, 0)")
        return driver.save_screenshot(command["path"])
    if name == "rate":
        # Figure messages the page drew per second, over the given seconds of page time.
        start = driver.execute_script("return window.voicerackUpdates")
        time.sleep(command.get("seconds", 2))
        end = driver.execute_script("return window.voicerackUpdates")
        return (end - start) / command.get("seconds", 2)
    raise ValueError("unknown command " + name)


def main():
    # A process group of our own: the test ends chromedriver and chromium with us, even if we hang.
    os.setpgid(0, 0)
    driver = browser()
    try:
        for line in sys.stdin:
            if not line.strip():
                continue
            command = json.loads(line)
            try:
                answer = {"seq": command.get("seq", 0), "ok": True, "value": run(driver, command)}
            except Exception as error:  # the test reads the message
                answer = {"seq": command.get("seq", 0), "ok": False, "value": repr(error)[:500]}
            print(json.dumps(answer), flush=True)
            if command["cmd"] == "quit":
                break
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
