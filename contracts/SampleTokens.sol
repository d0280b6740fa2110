// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {Ownable} from "@openzeppelin/contracts/access/Ownable.sol";

// Sample tokens for the contract analyzer's fixtures on the devnet. Each shows one pattern.

/// Honeypot: anyone can buy (receive from the pair), only allow-listed addresses can sell.
contract HoneypotToken is ERC20, Ownable {
    mapping(address => bool) public canSell;
    address public pair;

    constructor(uint256 supply) ERC20("Honey Pot", "HONEY") Ownable(msg.sender) {
        canSell[msg.sender] = true;
        _mint(msg.sender, supply);
    }

    function setPair(address pair_) external onlyOwner {
        pair = pair_;
    }

    function _update(address from, address to, uint256 value) internal override {
        if (pair != address(0) && to == pair) require(canSell[from], "trading paused");
        super._update(from, to, value);
    }
}

/// Fee-on-transfer: every transfer sends feeBps of the amount to the owner.
contract FeeOnTransferToken is ERC20, Ownable {
    uint256 public feeBps;

    constructor(uint256 supply, uint256 feeBps_) ERC20("Fee Token", "FEE") Ownable(msg.sender) {
        feeBps = feeBps_;
        _mint(msg.sender, supply);
    }

    function _update(address from, address to, uint256 value) internal override {
        if (from == address(0) || to == address(0) || from == owner() || to == owner()) {
            return super._update(from, to, value);
        }
        uint256 fee = (value * feeBps) / 10_000;
        super._update(from, owner(), fee);
        super._update(from, to, value - fee);
    }
}

/// The logic behind the upgradeable sample token (initialised through the proxy).
contract UpgradeableTokenLogic is ERC20 {
    bool private initialized;
    address public admin;

    constructor() ERC20("Proxy Token", "PRXY") {}

    function initialize(address admin_, uint256 supply) external {
        require(!initialized, "initialized");
        initialized = true;
        admin = admin_;
        _mint(admin_, supply);
    }
}

/// Buyback: the owner can pull tokens back from the pair at will (a "buyback" that drains it).
contract BuybackToken is ERC20, Ownable {
    constructor(uint256 supply) ERC20("Buyback Token", "BUYB") Ownable(msg.sender) {
        _mint(msg.sender, supply);
    }

    function buyback(address from, uint256 amount) external onlyOwner {
        _transfer(from, owner(), amount);
    }
}

/// A liquidity locker: holds LP tokens until a time, then only the beneficiary can withdraw.
contract LiquidityLocker {
    struct Lock {
        address token;
        address beneficiary;
        uint256 amount;
        uint256 unlockAt;
    }

    Lock[] public locks;

    event Locked(uint256 indexed id, address indexed token, address beneficiary, uint256 amount, uint256 unlockAt);

    function lock(address token, uint256 amount, uint256 unlockAt) external returns (uint256 id) {
        require(ERC20(token).transferFrom(msg.sender, address(this), amount), "transfer failed");
        locks.push(Lock(token, msg.sender, amount, unlockAt));
        id = locks.length - 1;
        emit Locked(id, token, msg.sender, amount, unlockAt);
    }

    function withdraw(uint256 id) external {
        Lock storage entry = locks[id];
        require(msg.sender == entry.beneficiary && block.timestamp >= entry.unlockAt, "locked");
        uint256 amount = entry.amount;
        entry.amount = 0;
        require(ERC20(entry.token).transfer(msg.sender, amount), "transfer failed");
    }
}
