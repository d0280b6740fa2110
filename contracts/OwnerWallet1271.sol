// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// A minimal smart-contract wallet for tests: ERC-1271 signatures are valid when the owner key
/// signed the hash. It can also execute calls (to move tokens it holds).
contract OwnerWallet1271 {
    bytes4 internal constant MAGIC = 0x1626ba7e;
    address public owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err, ) = ECDSA.tryRecover(hash, signature);
        return err == ECDSA.RecoverError.NoError && signer == owner ? MAGIC : bytes4(0xffffffff);
    }

    function execute(address target, uint256 value, bytes calldata data) external returns (bytes memory) {
        require(msg.sender == owner, "not owner");
        (bool ok, bytes memory result) = target.call{value: value}(data);
        require(ok, "call failed");
        return result;
    }

    receive() external payable {}
}

/// Deploys OwnerWallet1271 at a deterministic address (CREATE2), so that an ERC-6492 signature can
/// carry the factory call for a wallet that does not exist yet (as Coinbase Smart Wallet does).
contract OwnerWalletFactory {
    function deploy(address owner, bytes32 salt) external returns (address wallet) {
        wallet = address(new OwnerWallet1271{salt: salt}(owner));
    }

    function predict(address owner, bytes32 salt) external view returns (address) {
        bytes32 codeHash = keccak256(abi.encodePacked(type(OwnerWallet1271).creationCode, abi.encode(owner)));
        return address(uint160(uint256(keccak256(abi.encodePacked(bytes1(0xff), address(this), salt, codeHash)))));
    }
}
